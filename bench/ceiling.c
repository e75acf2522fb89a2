/*
 * ceiling.c: the raw libmicrohttpd ceiling for Formwright's benchmarks.
 *
 * A minimal server with the daemon configuration Formwright uses, so that
 * bench/run.sh can report Formwright's throughput and latency as a fraction of
 * what libmicrohttpd itself reaches on the same machine at the same moment.
 *
 *   ceiling [-t THREADS] PORT FILE [CONTENT_TYPE]
 *
 * - Binds 127.0.0.1:PORT (PORT 0 picks a free port) and prints
 *   "ceiling: listening on http://127.0.0.1:<port>/ ..." on stdout.
 * - GET/HEAD (any path): FILE's bytes, read once at start, from one
 *   pre-built RESPMEM_PERSISTENT response queued for every request.
 * - POST (any path): reads the whole body, then answers {"ok":true}
 *   (application/json), so the transport work matches Formwright's submit.
 * - Anything else: 405 with Connection: close.
 * - SIGTERM/SIGINT: stops the daemon, prints its counters, exits 0.
 *
 * The access-handler protocol follows docs/libmicrohttpd.md, "The access
 * handler's calls": in 0.9.75, queueing a response in the handler's first
 * call closes the connection afterwards, so normal requests only mark
 * *con_cls in the first call and are answered in a later one; that keeps
 * connections alive.
 *
 * Build: cc -O2 -Wall -Wextra -o ceiling ceiling.c \
 *          $(pkg-config --cflags --libs libmicrohttpd)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "bench-daemon.h"

/* MHD_Result appeared in 0.9.71; keep older headers compiling. */
#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

static const char OK_JSON[] = "{\"ok\":true}";

static struct MHD_Response *file_response;   /* GET/HEAD, built once */
static struct MHD_Response *post_response;   /* POST, built once */
static struct MHD_Response *method_response; /* 405, built once */

/* First-call marker for body-less requests: any non-NULL value works, and a
 * static one costs no allocation. */
static char get_marker;

/* Per-POST state: the body bytes seen so far. */
struct post_state {
    uint64_t bytes;
};

/* Counters printed at exit; relaxed atomics, they are only statistics. */
static uint64_t n_get, n_post, n_post_bytes, n_other;

static void count(uint64_t *counter, uint64_t n)
{
    __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static int is_method(const char *method, const char *name)
{
    return strcmp(method, name) == 0;
}

static MHD_RESULT handle(void *cls, struct MHD_Connection *conn, const char *url,
                         const char *method, const char *version,
                         const char *upload_data, size_t *upload_data_size,
                         void **con_cls)
{
    (void)cls;
    (void)url;
    (void)version;

    if (*con_cls == NULL) {
        /* First call: headers parsed, no body yet. Decide and mark; answer
         * later, except to reject (which closes, as a rejection should). */
        if (is_method(method, MHD_HTTP_METHOD_GET) || is_method(method, MHD_HTTP_METHOD_HEAD)) {
            *con_cls = &get_marker;
            return MHD_YES;
        }
        if (is_method(method, MHD_HTTP_METHOD_POST)) {
            struct post_state *st = calloc(1, sizeof *st);
            if (st == NULL)
                return MHD_NO; /* closes the connection */
            *con_cls = st;
            return MHD_YES;
        }
        count(&n_other, 1);
        return MHD_queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, method_response);
    }

    if (*con_cls == &get_marker) {
        count(&n_get, 1);
        return MHD_queue_response(conn, MHD_HTTP_OK, file_response);
    }

    struct post_state *st = *con_cls;
    if (*upload_data_size != 0) {
        /* Body call: consume everything offered, or it is offered again. */
        (void)upload_data;
        st->bytes += *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }
    /* Final call: the whole body has been read. */
    count(&n_post, 1);
    count(&n_post_bytes, st->bytes);
    return MHD_queue_response(conn, MHD_HTTP_OK, post_response);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    if (*con_cls != NULL && *con_cls != &get_marker)
        free(*con_cls);
    *con_cls = NULL;
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len < cap) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
            }
            break;
        }
        char *bigger = realloc(buf, cap * 2);
        if (bigger == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    *size = len;
    return buf;
}

static struct MHD_Response *fixed_response(size_t size, const char *body, const char *content_type)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(size, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (r == NULL || MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type) != MHD_YES) {
        fprintf(stderr, "ceiling: cannot build a response\n");
        exit(1);
    }
    return r;
}

static void usage(void)
{
    fprintf(stderr, "usage: ceiling [-t THREADS] [-H 'NAME: VALUE']... PORT FILE [CONTENT_TYPE]\n"
                    "  serves FILE for any GET/HEAD on 127.0.0.1:PORT (0 = any free port),\n"
                    "  with each -H header field too (at most 16),\n"
                    "  answers {\"ok\":true} to any POST after reading its whole body.\n"
                    "  THREADS defaults to the number of online cores.\n");
    exit(2);
}

static unsigned long parse_number(const char *s, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v > max)
        usage();
    return v;
}

int main(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned int threads = cores > 0 ? (unsigned int)cores : 1;
    const char *extra[16];
    size_t n_extra = 0;
    int opt;
    while ((opt = getopt(argc, argv, "t:H:h")) != -1) {
        switch (opt) {
        case 't':
            threads = (unsigned int)parse_number(optarg, 256);
            if (threads == 0)
                usage();
            break;
        case 'H':
            if (n_extra == sizeof extra / sizeof extra[0] || strchr(optarg, ':') == NULL)
                usage();
            extra[n_extra++] = optarg;
            break;
        default:
            usage();
        }
    }
    if (argc - optind < 2 || argc - optind > 3)
        usage();
    uint16_t port = (uint16_t)parse_number(argv[optind], 65535);
    const char *path = argv[optind + 1];
    const char *content_type = argc - optind == 3 ? argv[optind + 2] : "text/html; charset=utf-8";

    size_t file_size;
    char *file_bytes = read_file(path, &file_size);
    if (file_bytes == NULL) {
        fprintf(stderr, "ceiling: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    file_response = fixed_response(file_size, file_bytes, content_type);
    /* Added once, like the body: the ceiling pays only what libmicrohttpd does per request to send them. */
    for (size_t i = 0; i < n_extra; i++) {
        char name[128];
        const char *colon = strchr(extra[i], ':');
        size_t length = (size_t)(colon - extra[i]);
        if (length == 0 || length >= sizeof name)
            usage();
        memcpy(name, extra[i], length);
        name[length] = '\0';
        const char *value = colon + 1;
        while (*value == ' ')
            value++;
        if (MHD_add_response_header(file_response, name, value) != MHD_YES) {
            fprintf(stderr, "ceiling: cannot add the header field %s\n", extra[i]);
            return 1;
        }
    }
    post_response = fixed_response(sizeof OK_JSON - 1, OK_JSON, "application/json");
    method_response = fixed_response(0, "", "text/plain");
    if (MHD_add_response_header(method_response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD, POST") != MHD_YES ||
        MHD_add_response_header(method_response, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES) {
        fprintf(stderr, "ceiling: cannot build a response\n");
        return 1;
    }

    sigset_t stop;
    block_stop_signals(&stop);

    struct MHD_Daemon *d = start_bench_daemon(port, threads, handle, completed);
    if (d == NULL) {
        fprintf(stderr, "ceiling: MHD_start_daemon failed on 127.0.0.1:%u\n", (unsigned)port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned bound = info != NULL ? info->port : port;
    printf("ceiling: listening on http://127.0.0.1:%u/ (%u threads, %s, %zu bytes, %s)\n",
           bound, threads, path, file_size, content_type);
    fflush(stdout);

    int sig = wait_for_stop(&stop);
    MHD_stop_daemon(d);
    MHD_destroy_response(file_response);
    MHD_destroy_response(post_response);
    MHD_destroy_response(method_response);
    free(file_bytes);
    printf("ceiling: %s: served %llu GET, %llu POST (%llu body bytes), %llu other\n",
           sig == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)n_get, (unsigned long long)n_post,
           (unsigned long long)n_post_bytes, (unsigned long long)n_other);
    return 0;
}
