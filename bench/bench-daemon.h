/*
 * bench-daemon.h: the libmicrohttpd daemon of bench/'s C servers (ceiling.c, reference-submit.c, reference-page.c),
 * in one place, so that they differ only in their handlers.
 *
 * The configuration Formwright uses (docs/libmicrohttpd.md, "Threads" and "Limits"), except the per-IP limit: all
 * benchmark load comes from 127.0.0.1.
 */
#ifndef FORMWRIGHT_BENCH_DAEMON_H
#define FORMWRIGHT_BENCH_DAEMON_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <microhttpd.h>

/* Starts the daemon on 127.0.0.1:`port` (0 picks a free port) with `threads` threads, `handler` and
 * `completed`; NULL when libmicrohttpd refuses. */
static inline struct MHD_Daemon *start_bench_daemon(uint16_t port, unsigned int threads,
                                                    MHD_AccessHandlerCallback handler,
                                                    MHD_RequestCompletedCallback completed)
{
    static struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
                         MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_SOCK_ADDR, 0, &addr},
        {MHD_OPTION_CONNECTION_LIMIT, 1024, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, 0, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, 10, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, 32 * 1024, NULL},
        {MHD_OPTION_STRICT_FOR_CLIENT, 1, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, NULL},
        /* Last, so that one thread means no pool: MHD warns on a pool of 1. */
        {threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, (intptr_t)threads, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(flags, port, NULL, NULL, handler, NULL, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* Blocks SIGINT and SIGTERM before the daemon starts its threads, so that they inherit the mask and
 * only `wait_for_stop` receives them; ignores SIGPIPE. */
static inline void block_stop_signals(sigset_t *stop)
{
    sigemptyset(stop);
    sigaddset(stop, SIGINT);
    sigaddset(stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, stop, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Waits for SIGINT or SIGTERM; returns which. */
static inline int wait_for_stop(const sigset_t *stop)
{
    int sig = 0;
    while (sigwait(stop, &sig) != 0) {
    }
    return sig;
}

/* Serves `handler` on 127.0.0.1:`port` until SIGINT or SIGTERM, announcing itself as `name` on
 * stdout: the whole life of a reference handler. Returns the process's exit status. */
static inline int serve_until_stopped(const char *name, unsigned int port, unsigned int threads,
                                      MHD_AccessHandlerCallback handler,
                                      MHD_RequestCompletedCallback completed)
{
    sigset_t stop;
    block_stop_signals(&stop);
    struct MHD_Daemon *daemon = start_bench_daemon((uint16_t)port, threads, handler, completed);
    if (daemon == NULL) {
        fprintf(stderr, "%s: cannot listen on 127.0.0.1:%u\n", name, port);
        return 1;
    }
    printf("%s: listening on http://127.0.0.1:%u/ (%u threads)\n", name, port, threads);
    fflush(stdout);
    wait_for_stop(&stop);
    MHD_stop_daemon(daemon);
    return 0;
}

#endif
