/* jobstop.c - Ctrl-C or a key press stops a long job of the view
 * (tui/jobstop.h).
 *
 * The watcher thread only polls the keyboard's descriptor (it reads
 * nothing, so curses' state is untouched); at the end a key that stopped
 * the job is flushed from the terminal's input queue with tcflush (a
 * key that came as the job finished on its own stays for the view).
 * Ownership: the state below is the module's; the flag the caller's.
 */
#include "config.h"

#include "tui/jobstop.h"

#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <termios.h>
#include <unistd.h>

static int kb_fd = -1;
static volatile sig_atomic_t *volatile job_flag;
static volatile sig_atomic_t job_done, key_seen;
static pthread_t watcher;
static bool watching;

void tt_jobstop_attach(int fd)
{
    kb_fd = fd;
}

bool tt_jobstop_sigint(void)
{
    volatile sig_atomic_t *f = job_flag;
    if (!f)
        return false;
    *f = 1;
    return true;
}

static void *watch(void *arg)
{
    (void)arg;
    while (!job_done) {
        struct pollfd pf = {kb_fd, POLLIN, 0};
        /* a short timeout: the job's end is noticed within 50 ms */
        if (poll(&pf, 1, 50) > 0 && (pf.revents & POLLIN)) {
            key_seen = 1;
            if (job_flag)
                *job_flag = 1;
            break;
        }
    }
    return NULL;
}

void tt_jobstop_begin(volatile sig_atomic_t *flag)
{
    *flag = 0;
    job_done = 0;
    key_seen = 0;
    job_flag = flag;
    watching = kb_fd >= 0 && pthread_create(&watcher, NULL, watch, NULL) == 0;
}

bool tt_jobstop_end(bool stopped)
{
    bool key;
    job_done = 1;
    if (watching)
        pthread_join(watcher, NULL);
    watching = false;
    job_flag = NULL;
    key = stopped && key_seen != 0;
    if (key)
        tcflush(kb_fd, TCIFLUSH);
    return key;
}
