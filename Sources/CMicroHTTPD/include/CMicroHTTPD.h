// Typed wrappers over GNU libmicrohttpd for Swift.
//
// `MHD_start_daemon` and `MHD_get_daemon_info` are variadic, which Swift cannot
// call; the functions here take typed parameters only.
#ifndef TPNS_CMICROHTTPD_H
#define TPNS_CMICROHTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Called with the raw request URI (path and query, still percent-encoded) before
/// MHD parses it; the returned pointer becomes the request's `*con_cls`.
typedef void *_Nullable (*tpns_mhd_uri_callback)(void *_Nullable context, const char *_Nonnull uri,
                                                 struct MHD_Connection *_Nullable connection);

/// Called when libmicrohttpd answers a request itself, before any handler saw it (a
/// request line or header too large for the connection's memory: 414, 431; a
/// malformed request: 400, 505), with the status it answered.
typedef void (*tpns_mhd_refusal_callback)(void *_Nullable context, unsigned int status);

/// Where libmicrohttpd's own refusals are reported: `callback(context, status)`.
struct tpns_mhd_refusal_sink {
  tpns_mhd_refusal_callback _Nonnull callback;
  void *_Nullable context;
};

/// Starts a daemon with an internal poll thread, or a pool of `thread_pool_size`
/// poll threads when it is more than 1.
///
/// - `host`: numeric IPv4/IPv6 address or name to bind (resolved with getaddrinfo).
/// - `port`: 0 lets the kernel pick a free port (see `tpns_mhd_bound_port`).
/// - `handler`, `uri_callback`, `completed`, `connections` all receive `context`;
///   `connections` is told of each connection opened and closed (closed before its
///   socket is).
/// - `refusals`: told of each request libmicrohttpd answers itself (it must outlive
///   the daemon); libmicrohttpd's other log messages are dropped.
/// - `tls_key`, `tls_certificate`: PEM, both or neither; given, the daemon serves https
///   (libmicrohttpd's GnuTLS), else http.
/// - `error_out`: on failure, an errno-style code (EADDRINUSE; EADDRNOTAVAIL for a host
///   that is not an address or does not resolve; EPROTO when TLS cannot be set up; ...).
///
/// Returns NULL on failure.
struct MHD_Daemon *_Nullable tpns_mhd_start(const char *_Nonnull host, uint16_t port,
                                            MHD_AccessHandlerCallback _Nonnull handler,
                                            tpns_mhd_uri_callback _Nonnull uri_callback,
                                            MHD_RequestCompletedCallback _Nonnull completed,
                                            MHD_NotifyConnectionCallback _Nonnull connections,
                                            void *_Nullable context,
                                            struct tpns_mhd_refusal_sink *_Nonnull refusals,
                                            unsigned int thread_pool_size,
                                            unsigned int connection_timeout_s,
                                            size_t connection_memory_limit,
                                            unsigned int connection_limit,
                                            const char *_Nullable tls_key,
                                            const char *_Nullable tls_certificate,
                                            int *_Nonnull error_out);

/// The port the daemon is bound to (the kernel's choice when started with port 0).
uint16_t tpns_mhd_bound_port(struct MHD_Daemon *_Nonnull daemon);

/// The socket of a connection.
int tpns_mhd_connection_socket(struct MHD_Connection *_Nonnull connection);

/// The client's address of a connection, as text (`127.0.0.1`, `::1`), written to
/// `buffer` (of `capacity` bytes, NUL-terminated); false when it cannot be told.
bool tpns_mhd_connection_peer(struct MHD_Connection *_Nonnull connection, char *_Nonnull buffer,
                              size_t capacity);

/// Bytes written to `socket` that the peer has not acknowledged yet (`SIOCOUTQ`); -1
/// when it cannot be told.
int tpns_socket_unsent_bytes(int socket);

/// What the connection callback stored in the connection's `*socket_context`.
void *_Nullable tpns_mhd_connection_context(struct MHD_Connection *_Nonnull connection);

/// How a request's headers delimit its body (RFC 9112, section 6). A server that takes
/// one reading while a proxy in front takes another lets a request be smuggled inside
/// another one's body, so anything but one clear framing is refused, and so are header
/// lines that a proxy and libmicrohttpd could read as different headers.
enum __attribute__((enum_extensibility(closed))) tpns_mhd_framing {
  /// At most one `Content-Length`, or one `Transfer-Encoding: chunked` alone.
  TPNS_MHD_FRAMING_CLEAR,
  /// `Content-Length` given more than once.
  TPNS_MHD_FRAMING_REPEATED_LENGTH,
  /// `Content-Length` and `Transfer-Encoding` together.
  TPNS_MHD_FRAMING_LENGTH_AND_TRANSFER_ENCODING,
  /// `Transfer-Encoding` given more than once, or not `chunked` (libmicrohttpd would
  /// read such a body until the connection closes).
  TPNS_MHD_FRAMING_UNSUPPORTED_TRANSFER_ENCODING,
  /// A header name that is not a token: a space or tab before its colon (RFC 9112
  /// section 5.1), which libmicrohttpd keeps as part of the name, so that
  /// `Transfer-Encoding : chunked` would not count as a `Transfer-Encoding`.
  TPNS_MHD_FRAMING_MALFORMED_NAME,
  /// A header line continued on the next one (obs-fold, RFC 9112 section 5.2), which
  /// libmicrohttpd would join into the header's name.
  TPNS_MHD_FRAMING_FOLDED_LINE,
};

/// The framing of the request whose headers `connection` has received.
enum tpns_mhd_framing tpns_mhd_request_framing(struct MHD_Connection *_Nonnull connection);

/// Queues a response with a copy of `body`, a `Content-Type`,
/// `X-Content-Type-Options: nosniff` and, when non-NULL, one extra header; `close` adds `Connection: close` (the connection is closed once
/// it is sent). Returns MHD_YES when queued.
enum MHD_Result tpns_mhd_respond(struct MHD_Connection *_Nonnull connection, unsigned int status,
                                 const char *_Nonnull content_type,
                                 const char *_Nullable header_name,
                                 const char *_Nullable header_value, const void *_Nullable body,
                                 size_t body_length, bool close);

/// Queues a response whose body `reader(reader_context, ...)` produces as the client
/// reads it, ended by closing the connection (`Connection: close`), with a
/// `Content-Type`, `X-Content-Type-Options: nosniff` and, when non-NULL, one extra
/// header. `release(reader_context)` is
/// called once the response is done with, or at once when it cannot be made. Returns
/// MHD_YES when queued.
enum MHD_Result tpns_mhd_respond_stream(struct MHD_Connection *_Nonnull connection,
                                        unsigned int status, const char *_Nonnull content_type,
                                        const char *_Nullable header_name,
                                        const char *_Nullable header_value,
                                        MHD_ContentReaderCallback _Nonnull reader,
                                        void *_Nullable reader_context,
                                        MHD_ContentReaderFreeCallback _Nonnull release);

#endif
