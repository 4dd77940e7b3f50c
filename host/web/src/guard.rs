//! What keeps a server on loopback safe to leave running while its user
//! browses the web: every request must name this server in `Host` (a page
//! served from another name that resolves here, DNS rebinding, is refused),
//! every state-changing request must come from this server's own page
//! (`Origin`, when the browser sends one, is this server) and be
//! `application/json` (so a cross-site "simple" request, which a browser
//! sends without asking, never gets through). Every refusal, these and the
//! framework's own (a body over the limit, a wrong method), is JSON.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// Who may talk to the server.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The address the server listens on (its real port, after binding).
    pub addr: SocketAddr,
    /// Any `Host` is accepted (`clue serve --allow-remote`); `Origin` must
    /// still match it.
    pub any_host: bool,
}

impl Guard {
    /// The `Host` values that name this server: the loopback names on its
    /// port, and the address it is bound to.
    fn host_allowed(&self, host: &str) -> bool {
        if self.any_host {
            return true;
        }
        let port = self.addr.port();
        let names = [
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
            self.addr.to_string(),
        ];
        names.iter().any(|n| n.eq_ignore_ascii_case(host))
    }

    /// Why the request is refused, if it is.
    fn refuse(&self, method: &Method, headers: &HeaderMap) -> Option<ApiError> {
        let forbidden = |m: String| Some(ApiError::new(StatusCode::FORBIDDEN, m));
        let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
            return forbidden("the request names no host".to_string());
        };
        if !self.host_allowed(host) {
            return forbidden(format!(
                "host `{host}` is not this server (it answers as localhost:{port} or {addr}); \
                 start it with --allow-remote to accept other names",
                port = self.addr.port(),
                addr = self.addr
            ));
        }
        if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
            return None;
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let own = format!("http://{host}");
            if !origin.eq_ignore_ascii_case(&own) {
                return forbidden(format!(
                    "requests from other sites are refused: origin `{origin}` is not `{own}`"
                ));
            }
        }
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|c| c.to_str().ok())
            .and_then(|c| c.split(';').next())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Some(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the request body must be sent as content-type application/json",
            ));
        }
        None
    }
}

/// The middleware: refuses what [`Guard`] refuses, and turns any refusal the
/// handlers or the framework answer in plain text into `{"error": ...}`.
pub async fn check(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    if let Some(refusal) = guard.refuse(request.method(), request.headers()) {
        return refusal.into_response();
    }
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    // The framework's refusals are one short line.
    let text = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_lowercase())
        .unwrap_or_default();
    let text = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase()
    } else {
        text
    };
    ApiError::new(status, text).into_response()
}
