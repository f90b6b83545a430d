/* state-private.h - what state.c (the text of the state, read back),
 * state-write.c (writing it) and state-changes.c (what a change can reach)
 * share; nothing else includes it
 */
#ifndef KIC_STATE_PRIVATE_H
#define KIC_STATE_PRIVATE_H

#include "state.h"

/* The text's first line (state.c) */
#define KIC_STATE_HEADER "kde-icon-cache state 2"

struct _KicState {
  char *key;
  gboolean floor;
  GHashTable *dirs;   /* real path -> GPtrArray of KicFsListingEntry* sorted by name (NULL: none) */
  GHashTable *desktop; /* real path -> KicDesktopRead* (stamp NULL): the M records */
  GHashTable *store_stamps; /* store path -> KicFsStamp*: the F records */
  KicPlanMemo *memo;  /* the records (changed_stems still NULL) */
};

#endif
