#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/sockios.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

// libmicrohttpd has no hook for the answers it sends by itself (a request line that
// does not fit in the connection's memory gets a 414 with a fixed HTML body), but it
// logs each one with this format, the status first; the logger tells the emulator,
// so that the request log shows it.
static const char refusal_format[] = "HTTP response code is %u";

static void log_refusal(void *cls, const char *format, va_list arguments) {
  struct tpns_mhd_refusal_sink *sink = cls;
  if (strstr(format, refusal_format) != NULL) {
    unsigned int status = va_arg(arguments, unsigned int);
    sink->callback(sink->context, status);
  }
}

struct MHD_Daemon *tpns_mhd_start(const char *host, uint16_t port,
                                  MHD_AccessHandlerCallback handler,
                                  tpns_mhd_uri_callback uri_callback,
                                  MHD_RequestCompletedCallback completed,
                                  MHD_NotifyConnectionCallback connections, void *context,
                                  struct tpns_mhd_refusal_sink *refusals,
                                  unsigned int thread_pool_size, unsigned int connection_timeout_s,
                                  size_t connection_memory_limit, unsigned int connection_limit,
                                  const char *tls_key, const char *tls_certificate,
                                  int *error_out) {
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  struct addrinfo *found = NULL;
  if (getaddrinfo(host, NULL, &hints, &found) != 0 || found == NULL) {
    *error_out = EADDRNOTAVAIL;  // not an address, or not a name that resolves
    return NULL;
  }
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  memcpy(&address, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);

  // poll, not epoll: libmicrohttpd 0.9.75's edge-triggered epoll loses a client's FIN
  // that arrives together with a partial request, leaving the socket in CLOSE_WAIT
  // (holding a connection slot) until the idle timeout. poll costs no throughput at
  // the emulator's scale (same req/s under wrk -c50).
  // Suspend and resume: a live stream (the dashboard's `/_emulator/stream`) with nothing
  // to send suspends its connection, out of the poll set, until an event resumes it, so
  // that 100 open streams neither spin nor hold the serving thread.
  unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_TURBO | MHD_USE_ERROR_LOG |
                       MHD_ALLOW_SUSPEND_RESUME;
  if (address.ss_family == AF_INET6) {
    ((struct sockaddr_in6 *)&address)->sin6_port = htons(port);
    flags |= MHD_USE_IPv6;
  } else {
    ((struct sockaddr_in *)&address)->sin_port = htons(port);
  }

  // An array, so that an http daemon is given no TLS option at all. libmicrohttpd loads
  // the key and certificate into GnuTLS's credentials before MHD_start_daemon returns.
  bool is_tls = tls_key != NULL && tls_certificate != NULL;
  struct MHD_OptionItem tls_options[] = {
      {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key},
      {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_certificate},
      {MHD_OPTION_END, 0, NULL},
  };
  if (is_tls) {
    flags |= MHD_USE_TLS;
  }

  errno = 0;
  struct MHD_Daemon *daemon = MHD_start_daemon(
      flags, port, NULL, NULL, handler, context,
      // First: a message about an option before it would go to the default logger.
      MHD_OPTION_EXTERNAL_LOGGER, log_refusal, refusals,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
      MHD_OPTION_URI_LOG_CALLBACK, uri_callback, context,
      MHD_OPTION_NOTIFY_COMPLETED, completed, context,
      MHD_OPTION_NOTIFY_CONNECTION, connections, context,
      MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
      MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_s,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
      MHD_OPTION_ARRAY, is_tls ? tls_options : tls_options + 2,
      MHD_OPTION_END);
  if (daemon == NULL) {
    *error_out = errno != 0 ? errno : is_tls ? EPROTO : EADDRINUSE;
  }
  return daemon;
}

uint16_t tpns_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

int tpns_mhd_connection_socket(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

bool tpns_mhd_connection_peer(struct MHD_Connection *connection, char *buffer, size_t capacity) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL) {
    return false;
  }
  const struct sockaddr *address = info->client_addr;
  const void *bytes;
  if (address->sa_family == AF_INET) {
    bytes = &((const struct sockaddr_in *)address)->sin_addr;
  } else if (address->sa_family == AF_INET6) {
    bytes = &((const struct sockaddr_in6 *)address)->sin6_addr;
  } else {
    return false;
  }
  return inet_ntop(address->sa_family, bytes, buffer, (socklen_t)capacity) != NULL;
}

int tpns_socket_unsent_bytes(int socket) {
  int count = 0;
  return ioctl(socket, SIOCOUTQ, &count) == 0 ? count : -1;
}

void *tpns_mhd_connection_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

/// What `count_framing_headers` found among a request's headers.
struct framing_headers {
  unsigned int lengths;
  unsigned int transfer_encodings;
  bool is_chunked;
  bool has_malformed_name;
  bool has_folded_line;
};

/// Whether `c` may be part of a header name (RFC 9110 section 5.6.2, `tchar`).
static bool is_token_character(unsigned char c) {
  if (c >= '0' && c <= '9') return true;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return true;
  return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/// Whether the value of the header named `key` is the rest of the same line.
/// libmicrohttpd 0.9.75 accepts an obs-fold continuation line by appending it to the
/// copy of the *name* it moves out of the read buffer (`X-A: 1` + ` Transfer-Encoding:
/// chunked` becomes a header `X-ATransfer-Encoding: chunked` whose value is `1`), and
/// says nothing. On a line it did not fold, the name was cut off in place at its colon,
/// so the value starts right after it, past the optional spaces; a folded line's name
/// lives elsewhere in the connection's memory.
static bool value_follows_name(const char *key, const char *value) {
  size_t length = strlen(key);
  const char *after_colon = key + length + 1;
  if (value < after_colon) {
    return false;
  }
  for (const char *c = after_colon; c < value; c++) {
    if (*c != ' ' && *c != '\t') {
      return false;
    }
  }
  return true;
}

static enum MHD_Result count_framing_headers(void *cls, enum MHD_ValueKind kind, const char *key,
                                             const char *value) {
  (void)kind;
  struct framing_headers *found = cls;
  if (key[0] == '\0') {
    found->has_malformed_name = true;
  }
  for (const char *c = key; *c != '\0'; c++) {
    if (!is_token_character((unsigned char)*c)) {
      found->has_malformed_name = true;
    }
  }
  if (value != NULL && !value_follows_name(key, value)) {
    found->has_folded_line = true;
  }
  if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
    found->lengths += 1;
  } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
    found->transfer_encodings += 1;
    found->is_chunked = value != NULL && strcasecmp(value, "chunked") == 0;
  }
  return MHD_YES;
}

enum tpns_mhd_framing tpns_mhd_request_framing(struct MHD_Connection *connection) {
  struct framing_headers found = {0, 0, false, false, false};
  MHD_get_connection_values(connection, MHD_HEADER_KIND, count_framing_headers, &found);
  // A folded line also leaves a malformed name behind when the continuation has a
  // colon; the fold is the cause, so it is named first.
  if (found.has_folded_line) {
    return TPNS_MHD_FRAMING_FOLDED_LINE;
  }
  if (found.has_malformed_name) {
    return TPNS_MHD_FRAMING_MALFORMED_NAME;
  }
  if (found.lengths > 0 && found.transfer_encodings > 0) {
    return TPNS_MHD_FRAMING_LENGTH_AND_TRANSFER_ENCODING;
  }
  if (found.lengths > 1) {
    return TPNS_MHD_FRAMING_REPEATED_LENGTH;
  }
  if (found.transfer_encodings > 1 || (found.transfer_encodings == 1 && !found.is_chunked)) {
    return TPNS_MHD_FRAMING_UNSUPPORTED_TRANSFER_ENCODING;
  }
  return TPNS_MHD_FRAMING_CLEAR;
}

/// Adds the headers every response carries and queues it (dropping this reference).
static enum MHD_Result queue(struct MHD_Connection *connection, unsigned int status,
                             struct MHD_Response *response, const char *content_type,
                             const char *header_name, const char *header_value, bool close) {
  MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  // No browser may take a JSON answer or an error for a script or a page.
  MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  if (header_name != NULL && header_value != NULL) {
    MHD_add_response_header(response, header_name, header_value);
  }
  if (close) {
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
  }
  enum MHD_Result queued = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return queued;
}

enum MHD_Result tpns_mhd_respond(struct MHD_Connection *connection, unsigned int status,
                                 const char *content_type, const char *header_name,
                                 const char *header_value, const void *body, size_t body_length,
                                 bool close) {
  struct MHD_Response *response =
      MHD_create_response_from_buffer(body_length, (void *)body, MHD_RESPMEM_MUST_COPY);
  if (response == NULL) {
    return MHD_NO;
  }
  return queue(connection, status, response, content_type, header_name, header_value, close);
}

enum MHD_Result tpns_mhd_respond_stream(struct MHD_Connection *connection, unsigned int status,
                                        const char *content_type, const char *header_name,
                                        const char *header_value,
                                        MHD_ContentReaderCallback reader, void *reader_context,
                                        MHD_ContentReaderFreeCallback release) {
  // The block is where libmicrohttpd asks the reader for the body: one per response.
  struct MHD_Response *response =
      MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, reader, reader_context,
                                        release);
  if (response == NULL) {
    release(reader_context);
    return MHD_NO;
  }
  // Closed at its end: a stream the server ends (too many open, a client that does not
  // read) must free its connection at once, not keep it waiting for another request.
  return queue(connection, status, response, content_type, header_name, header_value, true);
}
