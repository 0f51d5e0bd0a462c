/* jobstop.h - a long job of the view (a `:sql` query) that Ctrl-C or a
 * key press stops, where Ctrl-C would otherwise quit the view.
 *
 * The terminal's owner (term.c) attaches the keyboard's descriptor for
 * the time of a session and asks, in its SIGINT handler, whether a job
 * takes the signal. Between tt_jobstop_begin and tt_jobstop_end, SIGINT
 * sets the job's flag instead of quitting, and a thread waits for input
 * on the keyboard and sets the flag when a key arrives (when that stopped
 * the job, the key is discarded at the end: it meant "stop", not a
 * command). Without an
 * attached keyboard (`render --keys`, tests) only the flag is set up.
 *
 * Ownership: the flag is the caller's and must outlive the job. Library
 * code: nothing prints.
 */
#ifndef TT_TUI_JOBSTOP_H
#define TT_TUI_JOBSTOP_H

#include <signal.h>
#include <stdbool.h>

/* The keyboard's descriptor while a terminal session runs; -1: none. */
void tt_jobstop_attach(int fd);

/* From a signal handler: a job is running and took SIGINT (its flag is
 * set). Async-signal-safe. */
bool tt_jobstop_sigint(void);

/* Start a job: *flag is cleared, then set by Ctrl-C or a key press. */
void tt_jobstop_begin(volatile sig_atomic_t *flag);

/* End it; stopped: the job ended because its flag was set. True when a
 * key press set it; that input is then discarded (it meant "stop"). A
 * key that came while a job finished anyway is kept for the view. */
bool tt_jobstop_end(bool stopped);

#endif
