/* cli.c - command dispatch, shared loading and error printing (see cli.h). */
#include "config.h"

#include "cli/cli.h"

#include "cli/progress.h"
#include "util/text.h"

#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Adding a command is adding a file and a line here. */
static const tt_command *const commands[] = {
    &tt_cmd_summary,
    NULL,
};

void tt_cli_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("tracetty: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void tt_cli_warn(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("tracetty: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void tt_cli_put_safe(FILE *f, const char *s)
{
    char buf[1024];
    size_t n = strlen(s);
    /* sanitize in slices so long strings are not cut */
    while (n > 0) {
        size_t take = n > 200 ? 200 : n;
        /* never split a UTF-8 sequence between slices */
        while (take < n && take > 0 && ((unsigned char)s[take] & 0xc0) == 0x80)
            take--;
        if (take == 0)
            take = n > 200 ? 200 : n;
        tt_text_sanitize(s, take, buf, sizeof buf);
        fputs(buf, f);
        s += take;
        n -= take;
    }
}

int tt_cli_load_option(int opt, const char *arg, tt_cli_load *lo)
{
    switch (opt) {
    case TT_OPT_LENIENT: lo->lenient = true; return 1;
    case TT_OPT_QUIET: lo->quiet = true; return 1;
    case TT_OPT_FORMAT_IN: lo->format = arg; return 1;
    case TT_OPT_CSV_MAP: lo->csv_map = arg; return 1;
    default: return 0;
    }
}

tt_trace *tt_cli_load_trace(const char *path, const tt_cli_load *lo)
{
    tt_load_opts opts;
    tt_load_info info;
    tt_progress prog;
    tt_error err;
    tt_trace *tr = NULL;
    char msg[700], safe_path[512];

    tt_text_sanitize(path, strlen(path), safe_path, sizeof safe_path);
    memset(&opts, 0, sizeof opts);
    opts.lenient = lo && lo->lenient;
    opts.format = lo ? lo->format : NULL;
    opts.csv_map = lo ? lo->csv_map : NULL;
    tt_progress_init(&prog, safe_path, lo && lo->quiet);
    opts.progress = tt_progress_update;
    opts.progress_ctx = &prog;
    tt_error_clear(&err);
    if (tt_load(path, &opts, &tr, &info, &err)) {
        tt_progress_done(&prog);
        tt_error_format(&err, safe_path, msg, sizeof msg);
        tt_cli_error("%s", msg);
        return NULL;
    }
    tt_progress_done(&prog);
    if (tr->problems[TT_PROB_DROPPED_TAIL].count && !(lo && lo->quiet)) {
        if (info.dropped_bytes > 0)
            tt_cli_warn("%s: incomplete trace: dropped %lld bytes (about %llu events) after the "
                        "last complete event; loaded %llu events",
                        safe_path, (long long)info.dropped_bytes,
                        (unsigned long long)info.dropped_events,
                        (unsigned long long)tr->n_events);
        else
            tt_cli_warn("%s: incomplete trace (%s); loaded %llu events", safe_path,
                        tr->problems[TT_PROB_DROPPED_TAIL].example,
                        (unsigned long long)tr->n_events);
    }
    return tr;
}

static int file_exists(const char *p)
{
    return access(p, R_OK) == 0;
}

const char *tt_cli_demo_path(void)
{
    static char path[PATH_MAX + 32];
    char exe[PATH_MAX];
    ssize_t n;
    const char *env = getenv("TRACETTY_DEMO");
    if (env && *env)
        return env;
    /* In a build tree the program sits next to samples/. */
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/samples/demo.json", exe);
            if (file_exists(path))
                return path;
        }
    }
    snprintf(path, sizeof path, "%s/samples/demo.json", TT_SRCDIR);
    if (file_exists(path))
        return path;
    snprintf(path, sizeof path, "%s/demo.json", TT_PKGDATADIR);
    if (file_exists(path))
        return path;
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tracetty [TRACE]\n"
               "       tracetty COMMAND [OPTIONS] ...\n"
               "\n"
               "Terminal trace analyzer for ML accelerator profiles.\n"
               "With a TRACE (default: the bundled demo) and a terminal, browse its timeline;\n"
               "when stdout is not a terminal, print its summary.\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; commands[i]; i++)
        fprintf(f, "  %-14s %s\n", commands[i]->name, commands[i]->help);
    fprintf(f, "\n"
               "Options for commands that read traces:\n"
               "  --lenient            load the complete events of a cut-off trace\n"
               "  --quiet              no progress line on stderr\n"
               "  --input-format NAME  skip detection (chrome-json)\n"
               "\n"
               "Input may be plain, gzip or zstd compressed, or - for stdin.\n"
               "Run 'tracetty help COMMAND' for a command's usage; 'man tracetty' for all.\n"
               "Exit status: 0 success, 1 check findings, 2 error.\n");
}

static const tt_command *find_command(const char *name)
{
    for (size_t i = 0; commands[i]; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

int tt_cli_main(int argc, char **argv)
{
    const tt_command *cmd;
    const char *cs;

    setlocale(LC_ALL, "");
    cs = nl_langinfo(CODESET);
    tt_text_set_utf8(cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0));
    /* Numbers in reports must not depend on the user's locale. */
    setlocale(LC_NUMERIC, "C");

    if (argc >= 2) {
        const char *a = argv[1];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return TT_EXIT_OK;
        }
        if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("tracetty %s\n", PACKAGE_VERSION);
            return TT_EXIT_OK;
        }
        if (strcmp(a, "help") == 0) {
            if (argc >= 3 && (cmd = find_command(argv[2]))) {
                printf("usage: tracetty %s\n%s\n", cmd->usage, cmd->help);
                return TT_EXIT_OK;
            }
            usage(stdout);
            return argc >= 3 ? TT_EXIT_ERROR : TT_EXIT_OK;
        }
        if ((cmd = find_command(a)))
            return cmd->exec(argc - 1, argv + 1);
        if (a[0] == '-' && a[1] != '\0') {
            tt_cli_error("unknown option '%s' (see 'tracetty --help')", a);
            return TT_EXIT_ERROR;
        }
    }
    /* tracetty [TRACE...]: browse on a terminal, else summarize */
    {
        const char *demo = NULL;
        char *args[3];
        if (argc < 2) {
            demo = tt_cli_demo_path();
            if (!demo) {
                tt_cli_error("the demo trace is not installed; give a trace file "
                             "(see 'tracetty --help')");
                return TT_EXIT_ERROR;
            }
            args[0] = (char *)"summary";
            args[1] = (char *)demo;
            args[2] = NULL;
            return tt_cmd_summary.exec(2, args);
        }
        argv[0] = (char *)"summary";
        return tt_cmd_summary.exec(argc, argv);
    }
}
