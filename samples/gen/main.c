/* main.c - gen-trace: writes synthetic, deterministic profiler traces for
 * tracetty's demo, tests and benchmarks.
 *
 *   gen-trace FORMAT [OPTIONS] -o FILE
 *
 * The format table below dispatches to one writer per file (formats.h).
 * Not installed: a build and test tool.
 */
#include "config.h"

#include "gen/common.h"
#include "gen/formats.h"

#include <stdio.h>
#include <string.h>

/* Adding a format is adding a file and a line here. */
static const gen_format *const formats[] = {
    &gen_format_kineto,
    &gen_format_neuron,
    &gen_format_ascend_csv,
    &gen_format_nsys_csv,
    &gen_format_hugectr,
    NULL,
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gen-trace FORMAT [OPTIONS] -o FILE\n"
               "\n"
               "Write a synthetic, deterministic trace (the same options give the same\n"
               "bytes). FILE is replaced atomically; - writes to stdout.\n"
               "\n"
               "Formats:\n");
    for (size_t i = 0; formats[i]; i++)
        fprintf(f, "  %-10s %s\n             gen-trace %s %s\n", formats[i]->name,
                formats[i]->help, formats[i]->name, formats[i]->usage);
    fprintf(f, "\nRun 'gen-trace FORMAT --help' for a format's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return GEN_EXIT_ERROR;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return GEN_EXIT_OK;
    }
    for (size_t i = 0; formats[i]; i++)
        if (strcmp(formats[i]->name, argv[1]) == 0)
            return formats[i]->run(argc - 1, argv + 1);
    gen_error("unknown format '%s' (see 'gen-trace --help')", argv[1]);
    return GEN_EXIT_ERROR;
}
