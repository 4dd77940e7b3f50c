//! What the Speed Clue contest tests share: an entrant started against a
//! listening port, and a message read the way the contest's server reads it.

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Starts the entrant `words(port)` (program and arguments) against a
/// listening port and takes its connection. Reads time out after 20 s, a
/// hang guard only (the contest's server has its own time limits).
pub fn connect(words: impl FnOnce(u16) -> Vec<String>) -> (Child, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("listens");
    let port = listener.local_addr().expect("address").port();
    let words = words(port);
    let child = Command::new(&words[0])
        .args(&words[1..])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the entrant starts");
    let (stream, _) = listener.accept().expect("the entrant connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout (a hang guard only)");
    (child, stream)
}

/// One message as the contest's server reads it (`Player.getResponse`):
/// one read into a 512-char buffer, trailing NULs stripped.
pub fn contest_read(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut buffer = [0u8; 512];
    let n = stream.read(&mut buffer)?;
    Ok(String::from_utf8_lossy(&buffer[..n])
        .trim_end_matches('\0')
        .to_string())
}
