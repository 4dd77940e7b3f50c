//! The network of a sandboxed build that asks for one (a tournament's
//! `build: {network: [pypi.org, ...]}`, `docs/tournament.md`): an HTTPS
//! proxy in the host, reached from the build's own network namespace at
//! `127.0.0.1:`[`PORT`] (the listener the sandbox makes there, as for a
//! Speed Clue bot), that tunnels (`CONNECT host:port`) to the hosts the
//! organizer listed and to nothing else.
//!
//! So the build still reaches neither the host's loopback services (a
//! PostgreSQL store, `clue serve`) nor any machine of the network not
//! listed: its namespace holds only that listener, and the host connects
//! for it only where a name on the list says. pip, cargo, npm, git, curl and
//! Go take the proxy from `HTTPS_PROXY` ([`environment`]); a name is
//! resolved by the proxy, so the build needs no DNS of its own.
//!
//! Hand-written on `httparse` (the request line) and std's sockets and
//! threads: a tunnel is a request head and two copies, and the proxy
//! servers on crates.io are whole forward proxies (caches, HTTP
//! rewriting) for tokio services, not a filter a blocking build waits on.

use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The port of the proxy inside the build's network namespace (the
/// namespace is the build's own, so any port would do: this is squid's).
pub const PORT: u16 = 3128;

/// The longest request head a client may send before its tunnel.
const HEAD_MAX: usize = 8 * 1024;

/// How long a client may take to send its request head, and the proxy to
/// connect to the host it named.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// Connections served at once (each a thread of the host, two while it
/// tunnels); one past it is told to come back (503) and closed, so that a
/// build opening sockets by the thousand costs the host no more.
const CONNECTIONS_MAX: usize = 64;

/// How many refusals a build's message lists, and how long each may be.
const REFUSALS_KEPT: usize = 16;
const REFUSAL_CHARS: usize = 200;

/// One host (or every host under a domain) and port the build may reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowed {
    host: Pattern,
    port: u16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Pattern {
    /// This name or address, lowercase, no trailing dot.
    Exact(String),
    /// Every name ending in `.suffix` (`*.suffix` as written), not the
    /// suffix itself.
    Under(String),
}

impl Allowed {
    /// `host`, `host:port`, `*.domain`, `*.domain:port`, `1.2.3.4:port` or
    /// `[::1]:port`; the port is 443 when not given.
    pub fn parse(entry: &str) -> Result<Allowed, String> {
        let entry = entry.trim();
        if entry.is_empty() {
            return Err("an empty host".into());
        }
        if entry.contains("://") || entry.contains('/') {
            return Err(format!(
                "`{entry}` is not a host: name the host alone (`pypi.org`, \
                 `files.pythonhosted.org:443`), not a URL"
            ));
        }
        let (host, port) = split_authority(entry)
            .ok_or_else(|| format!("`{entry}`: the port must be a number from 1 to 65535"))?;
        let port = port.unwrap_or(443);
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let pattern = match host.strip_prefix("*.") {
            Some(suffix) if is_name(suffix) && suffix.contains('.') => {
                Pattern::Under(suffix.to_string())
            }
            Some(_) => {
                return Err(format!(
                    "`{entry}`: a `*.` names every host of a domain (`*.example.org`), \
                     and needs a domain of at least two labels after it"
                ));
            }
            None if host.parse::<IpAddr>().is_ok() || is_name(&host) => Pattern::Exact(host),
            None => return Err(format!("`{entry}` is not a host name or address")),
        };
        Ok(Allowed {
            host: pattern,
            port,
        })
    }

    fn admits(&self, host: &str, port: u16) -> bool {
        port == self.port
            && match &self.host {
                Pattern::Exact(name) => host == name,
                Pattern::Under(suffix) => host
                    .strip_suffix(suffix.as_str())
                    .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
            }
    }

    /// Whether this entry names the machine itself (`localhost`, a
    /// loopback address): only then may its name lead to the loopback.
    fn names_loopback(&self) -> bool {
        match &self.host {
            Pattern::Exact(name) => {
                name == "localhost" || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
            }
            Pattern::Under(_) => false,
        }
    }
}

impl std::fmt::Display for Allowed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let host = match &self.host {
            Pattern::Exact(name) if name.contains(':') => format!("[{name}]"),
            Pattern::Exact(name) => name.clone(),
            Pattern::Under(suffix) => format!("*.{suffix}"),
        };
        write!(f, "{host}:{}", self.port)
    }
}

/// A DNS name's letters: labels of letters, digits, `-` and `_`.
fn is_name(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// `host`, `host:port` or `[v6]:port` taken apart; `None` when a port is
/// there and is no port.
fn split_authority(authority: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        match after.strip_prefix(':') {
            Some(port) => (host, Some(port)),
            None if after.is_empty() => (host, None),
            None => return None,
        }
    } else if authority.matches(':').count() == 1 {
        let (host, port) = authority.split_once(':')?;
        (host, Some(port))
    } else {
        (authority, None)
    };
    match port {
        None => Some((host, None)),
        Some(port) => match port.parse::<u16>() {
            Ok(0) | Err(_) => None,
            Ok(port) => Some((host, Some(port))),
        },
    }
}

/// The variables that point a build's tools at the proxy: the `*_PROXY`
/// pairs pip, cargo, npm, git, curl and Go read, and for a JVM (Gradle's
/// downloads) the proxy properties through `JAVA_TOOL_OPTIONS`, with no
/// host left out of the proxy (a JVM's default leaves out `localhost`):
/// the proxy is the build's only way out.
pub fn environment() -> Vec<(&'static str, String)> {
    let url = format!("http://127.0.0.1:{PORT}");
    let java = format!(
        "-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort={PORT} \
         -Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort={PORT} -Dhttp.nonProxyHosts="
    );
    vec![
        ("HTTPS_PROXY", url.clone()),
        ("https_proxy", url.clone()),
        ("HTTP_PROXY", url.clone()),
        ("http_proxy", url.clone()),
        ("ALL_PROXY", url),
        ("JAVA_TOOL_OPTIONS", java),
    ]
}

/// Maven's `~/.m2/settings.xml` for a build with a network: the proxy for
/// `https` and `http` repositories alike (Maven takes the first active
/// proxy of the repository's protocol). Maven 3.8's transport reads the
/// JVM's `https.proxyHost` of [`environment`] too; a transport that reads
/// only its settings (or a `mvn` run with `JAVA_TOOL_OPTIONS` unset)
/// finds the proxy here. The build's `HOME`, where it is written, is its
/// own scratch folder, so an entrant's `mvn -s its-settings.xml` still
/// decides for itself.
pub fn maven_settings() -> String {
    let proxy = |protocol: &str| {
        format!(
            "    <proxy><id>clue-arena-{protocol}</id><active>true</active><protocol>{protocol}</protocol>\
             <host>127.0.0.1</host><port>{PORT}</port></proxy>\n"
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!-- Written by Clue Arena for this sandboxed build: its one way out is the host's HTTPS proxy. -->\n\
         <settings xmlns=\"http://maven.apache.org/SETTINGS/1.0.0\">\n  <proxies>\n{}{}  </proxies>\n</settings>\n",
        proxy("https"),
        proxy("http")
    )
}

/// The proxy of one build, serving its listener on a thread until
/// [`Proxy::stop`].
pub struct Proxy {
    shared: Arc<Shared>,
    accepting: Option<JoinHandle<()>>,
}

struct Shared {
    allowed: Vec<Allowed>,
    stop: AtomicBool,
    /// What the proxy refused, each once, in order (at most
    /// [`REFUSALS_KEPT`]): for the message of a build that then failed.
    refused: Mutex<Vec<String>>,
    /// A handle on every connection being served, by number, so that
    /// [`Proxy::stop`] ends the tunnels still open.
    clients: Mutex<std::collections::HashMap<usize, TcpStream>>,
    /// The number of the next connection.
    next: AtomicUsize,
}

impl Proxy {
    /// Serves `listener` (the build's, taken from its sandbox) for the
    /// hosts `allowed`.
    pub fn start(listener: TcpListener, allowed: Vec<Allowed>) -> io::Result<Proxy> {
        // Accepting without blocking, looked at every few milliseconds, so
        // that `stop` needs no connection of its own to wake the thread.
        listener.set_nonblocking(true)?;
        let shared = Arc::new(Shared {
            allowed,
            stop: AtomicBool::new(false),
            refused: Mutex::new(Vec::new()),
            clients: Mutex::new(std::collections::HashMap::new()),
            next: AtomicUsize::new(0),
        });
        let accepting = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("build-proxy".into())
                .spawn(move || accept(&listener, &shared))?
        };
        Ok(Proxy {
            shared,
            accepting: Some(accepting),
        })
    }

    /// Stops accepting, ends every tunnel, and says what was refused.
    pub fn stop(mut self) -> Vec<String> {
        self.end();
        std::mem::take(&mut *lock(&self.shared.refused))
    }

    fn end(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.accepting.take() {
            let _ = thread.join();
        }
        for (_, client) in lock(&self.shared.clients).drain() {
            let _ = client.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.end();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    while !shared.stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((mut client, _)) => {
                if client.set_nonblocking(false).is_err() {
                    continue;
                }
                let Ok(handle) = client.try_clone() else {
                    continue;
                };
                let id = shared.next.fetch_add(1, Ordering::Relaxed);
                {
                    let mut clients = lock(&shared.clients);
                    if clients.len() >= CONNECTIONS_MAX {
                        drop(clients);
                        reply(
                            &mut client,
                            "503 Service Unavailable",
                            "too many connections",
                        );
                        continue;
                    }
                    clients.insert(id, handle);
                }
                let served = Arc::clone(shared);
                let spawned = std::thread::Builder::new()
                    .name("build-tunnel".into())
                    .spawn(move || {
                        serve(client, &served);
                        lock(&served.clients).remove(&id);
                    });
                if let Err(e) = spawned {
                    lock(&shared.clients).remove(&id);
                    tracing::warn!(error = %e, "the build's proxy could not start a tunnel");
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                tracing::warn!(error = %e, "the build's proxy stopped accepting");
                return;
            }
        }
    }
}

/// One client: its request head, the check, the tunnel.
fn serve(mut client: TcpStream, shared: &Shared) {
    let _ = client.set_read_timeout(Some(HANDSHAKE));
    let Some((head, early)) = read_head(&mut client) else {
        return;
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut request = httparse::Request::new(&mut headers);
    let (method, target) = match request.parse(&head) {
        Ok(httparse::Status::Complete(_)) => (
            request.method.unwrap_or_default().to_string(),
            request.path.unwrap_or_default().to_string(),
        ),
        _ => {
            reply(&mut client, "400 Bad Request", "not an HTTP request");
            return;
        }
    };
    if method != "CONNECT" {
        let what = format!("{method} {target} (plain HTTP: the proxy tunnels HTTPS only)");
        refuse(shared, &mut client, "405 Method Not Allowed", what);
        return;
    }
    let Some((host, Some(port))) = split_authority(&target) else {
        reply(&mut client, "400 Bad Request", "CONNECT takes host:port");
        return;
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let Some(entry) = shared.allowed.iter().find(|a| a.admits(&host, port)) else {
        let what = format!("{host}:{port} (not in the build's `network:`)");
        refuse(shared, &mut client, "403 Forbidden", what);
        return;
    };
    match connect(&host, port, entry.names_loopback()) {
        Ok(upstream) => {
            tracing::debug!(%host, port, "the build's proxy opened a tunnel");
            if client
                .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                .is_ok()
            {
                tunnel(client, upstream, &early);
            }
        }
        Err(why) => {
            let what = format!("{host}:{port} ({why})");
            refuse(shared, &mut client, "502 Bad Gateway", what);
        }
    }
}

/// The request head up to its blank line, and what the client sent after
/// it (the start of its TLS handshake, when it did not wait).
fn read_head(client: &mut TcpStream) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 1024];
    loop {
        let n = client.read(&mut buffer).ok()?;
        if n == 0 {
            return None;
        }
        head.extend_from_slice(&buffer[..n]);
        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            let early = head.split_off(end + 4);
            return Some((head, early));
        }
        if head.len() > HEAD_MAX {
            reply(
                client,
                "431 Request Header Fields Too Large",
                "head too long",
            );
            return None;
        }
    }
}

/// Connects to `host:port`, resolved here. A name that leads to this
/// machine (loopback) or to a link-local address (a cloud's metadata
/// service at 169.254.169.254) is refused unless the entry that admitted it
/// names the machine itself: a listed name must not open the host's own
/// services.
fn connect(host: &str, port: u16, loopback_allowed: bool) -> Result<TcpStream, String> {
    let addresses: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot be resolved: {e}"))?
        .collect();
    let reachable: Vec<SocketAddr> = addresses
        .iter()
        .copied()
        .filter(|a| loopback_allowed || !local(a.ip()))
        .collect();
    if reachable.is_empty() {
        return Err(format!(
            "leads to {}, an address of this machine or its link",
            addresses
                .first()
                .map_or_else(|| "nothing".to_string(), |a| a.ip().to_string())
        ));
    }
    let mut last = String::new();
    for address in reachable {
        match TcpStream::connect_timeout(&address, HANDSHAKE) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = format!("cannot be reached at {address}: {e}"),
        }
    }
    Err(last)
}

fn local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_link_local() || v4.is_unspecified(),
        IpAddr::V6(v6) => {
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_unicast_link_local()
                || v6.to_ipv4_mapped().is_some_and(|v4| local(IpAddr::V4(v4)))
        }
    }
}

/// Copies both ways until either side ends.
fn tunnel(client: TcpStream, upstream: TcpStream, early: &[u8]) {
    let _ = client.set_read_timeout(None);
    let (Ok(mut client_in), Ok(mut upstream_out)) = (client.try_clone(), upstream.try_clone())
    else {
        return;
    };
    if upstream_out.write_all(early).is_err() {
        return;
    }
    let up = std::thread::spawn(move || {
        let _ = io::copy(&mut client_in, &mut upstream_out);
        let _ = upstream_out.shutdown(Shutdown::Write);
    });
    let (mut upstream_in, mut client_out) = (upstream, client);
    let _ = io::copy(&mut upstream_in, &mut client_out);
    let _ = client_out.shutdown(Shutdown::Both);
    let _ = upstream_in.shutdown(Shutdown::Both);
    let _ = up.join();
}

/// Answers `status` and keeps `what` (the build's own words, so without
/// control characters and cut short: they reach the organizer's terminal).
fn refuse(shared: &Shared, client: &mut TcpStream, status: &str, what: String) {
    let mut what: String = what.chars().filter(|c| !c.is_control()).collect();
    if what.chars().count() > REFUSAL_CHARS {
        what = what.chars().take(REFUSAL_CHARS).collect::<String>() + "...";
    }
    tracing::info!(refused = %what, "the build's proxy refused a request");
    reply(client, status, &format!("Clue Arena refused {what}"));
    let mut refused = lock(&shared.refused);
    if refused.len() < REFUSALS_KEPT && !refused.contains(&what) {
        refused.push(what);
    }
}

fn reply(client: &mut TcpStream, status: &str, body: &str) {
    let body = format!("{body}\n");
    let _ = write!(
        client,
        "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_read_with_their_ports_and_bad_ones_say_why() {
        let pypi = Allowed::parse("PyPI.org.").expect("a name");
        assert_eq!(pypi.to_string(), "pypi.org:443");
        assert!(pypi.admits("pypi.org", 443));
        assert!(!pypi.admits("pypi.org", 80));
        assert!(!pypi.admits("evil-pypi.org", 443));
        let under = Allowed::parse("*.crates.io:8443").expect("a domain");
        assert!(under.admits("static.crates.io", 8443));
        assert!(
            !under.admits("crates.io", 8443),
            "the domain itself is not under it"
        );
        assert!(!under.admits("notcrates.io", 8443));
        assert_eq!(
            Allowed::parse("[::1]:9000").expect("v6").to_string(),
            "[::1]:9000"
        );
        assert!(
            Allowed::parse("localhost:5000")
                .expect("name")
                .names_loopback()
        );
        assert!(!pypi.names_loopback());
        for (bad, says) in [
            ("https://pypi.org/simple", "not a URL"),
            ("pypi.org:0", "port must be a number"),
            ("pypi.org:https", "port must be a number"),
            ("*.org", "at least two labels"),
            ("py pi.org", "not a host name"),
            ("", "empty"),
        ] {
            let error = Allowed::parse(bad).expect_err(bad);
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn a_name_that_leads_to_this_machine_is_reached_only_when_the_entry_names_it() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let refused = connect("localhost", port, false).expect_err("the loopback");
        assert!(refused.contains("an address of this machine"), "{refused}");
        connect("localhost", port, true).expect("named by its entry");
        let unresolved = connect("no-such-host.invalid", 443, false).expect_err("no name");
        assert!(unresolved.contains("cannot be resolved"), "{unresolved}");
    }

    #[test]
    fn loopback_and_link_local_addresses_are_the_machines_own() {
        for ip in [
            "127.0.0.1",
            "::1",
            "169.254.169.254",
            "0.0.0.0",
            "::ffff:127.0.0.1",
            "fe80::1",
        ] {
            assert!(local(ip.parse().expect("an address")), "{ip}");
        }
        for ip in ["151.101.0.223", "10.1.2.3", "2a04:4e42::223"] {
            assert!(!local(ip.parse().expect("an address")), "{ip}");
        }
    }
}
