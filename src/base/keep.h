/* keep.h - memory left to the end of the process
 *
 * For the face's commands, which run once a process.
 */
#ifndef KIC_KEEP_H
#define KIC_KEEP_H

#include <glib.h>

/* Leave DATA to the process's exit instead of FREE_FUNC: the kernel takes
 * a run's memory back at once, where freeing a rebuild's index, state and
 * plan one allocation at a time is a visible part of an incremental
 * rebuild.  DATA stays reachable (from a static
 * array), so valgrind counts it as such and no leak; built with
 * AddressSanitizer, FREE_FUNC runs at once, so that the leak check still
 * sees every allocation freed.  For the face's commands, which run once a
 * process.  NULL is left alone. */
void kic_keep_until_exit (gpointer data, GDestroyNotify free_func);

#endif /* KIC_KEEP_H */
