/* The only C the Swift side sees. Each adapter exists because Swift cannot call the
 * C function it wraps directly (variadic) or cannot spell the result conveniently. */
#ifndef FORMWRIGHT_CMICROHTTPD_SHIM_H
#define FORMWRIGHT_CMICROHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <microhttpd.h>

/* The calling thread's slot for its number (Swift's `ThreadNumber`), 0 until it has one: C's
 * thread-local storage, which Swift lacks, read in two instructions. Initial-exec, so no
 * __tls_get_addr call: Formwright is one executable, not a library loaded later. Defined in this
 * header, each module that calls it would have its own slot: only HTTPServer does. */
static inline long *CMicroHTTPD_threadNumberSlot(void)
{
    static __thread __attribute__((tls_model("initial-exec"))) long slot;
    return &slot;
}

/* MHD_start_daemon is variadic, which Swift does not import: pass every option
 * through one MHD_OPTION_ARRAY instead. The array only needs to live during the call. */
static inline struct MHD_Daemon *CMicroHTTPD_startDaemon(unsigned int flags, uint16_t port,
    MHD_AccessHandlerCallback handler, void *handlerContext, const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handlerContext,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic: read back the port the kernel bound (port 0 asks for any). */
static inline uint16_t CMicroHTTPD_boundPort(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* MHD_get_connection_info is variadic: the peer address, or NULL when unknown. */
static inline const struct sockaddr *CMicroHTTPD_clientAddress(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/* MHD_get_connection_info is variadic: the connection's socket, or -1 when unknown. */
static inline int CMicroHTTPD_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* MHD_get_connection_info is variadic: the bytes of the request line and header fields as
 * received, or 0 when unknown (before the headers are read). */
static inline size_t CMicroHTTPD_requestHeaderSize(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}

/* MHD_get_connection_info is variadic: the connection's socket context, the value the
 * MHD_OPTION_NOTIFY_CONNECTION callback stored at MHD_CONNECTION_NOTIFY_STARTED (NULL before). */
static inline void *CMicroHTTPD_socketContext(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* The free-callback variant takes the callback as a typedef Swift imports as optional;
 * this adapter keeps the zero-copy constructor's call site in Swift short. The body stays
 * owned by Swift: `release` is called with `owner` when MHD drops its last reference. */
static inline struct MHD_Response *CMicroHTTPD_responseFromOwnedBuffer(size_t size, const void *bytes,
    MHD_ContentReaderFreeCallback release, void *owner)
{
    return MHD_create_response_from_buffer_with_free_callback_cls(size, bytes, release, owner);
}

#endif
