/* main.c - tracetty entry point: everything lives in the library; main only
 * dispatches to the command-line front end. */
#include "config.h"

#include "cli/cli.h"

int main(int argc, char **argv)
{
    return tt_cli_main(argc, argv);
}
