/* formats.h - the output formats gen-trace knows.
 *
 * Each format is one file under samples/gen/ exporting one gen_format
 * (name, usage, run); main.c lists them in a table. Adding a format is
 * adding a file, a line in that table and the file in samples/local.mk.
 *
 * run() receives argv with argv[0] = the format name, parses its own
 * options (gen_opts_parse), writes the file and returns an exit code
 * (GEN_EXIT_OK, GEN_EXIT_ERROR), printing its own error messages.
 */
#ifndef GEN_FORMATS_H
#define GEN_FORMATS_H

typedef struct gen_format {
    const char *name;     /* "kineto" */
    const char *usage;    /* options, for the one-line usage */
    const char *help;     /* one line: what it writes */
    int (*run)(int argc, char **argv);
} gen_format;

extern const gen_format gen_format_kineto;
extern const gen_format gen_format_neuron;       /* neuron.c */
extern const gen_format gen_format_ascend_csv;   /* ascend_csv.c */
extern const gen_format gen_format_nsys_csv;     /* nsys_csv.c */
extern const gen_format gen_format_hugectr;      /* hugectr.c */

#endif
