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
  /* the listings' entries and their strings are the state's: in TEXT
   * (cut into fields, each name read in place when it holds no escape)
   * and in OWNED.  The index keeps references to the listings seeded
   * from them and reads them while the run lasts; rebuild() frees the
   * state just before the index, which then only drops its references */
  char *text;
  char *source;       /* the text as read, whole */
  GHashTable *listing_text; /* listing (GPtrArray*) -> ListingText*: where
                             * its D, E and L lines are in SOURCE */
  GPtrArray *owned;   /* entry blocks and unescaped strings (g_free) */
  KicFsListingEntry *block; /* entries left in the last block */
  guint block_left;
  char *key;
  gboolean floor;
  GHashTable *dirs;   /* real path -> GPtrArray of KicFsListingEntry* sorted by name (NULL: none) */
  GHashTable *unlisted; /* real paths of the directories whose names were
                         * not known (kic_fs_dir_listed()) -> GINT_TO_POINTER
                         * (2: past the bound on one, 3: the run's budget
                         * on users' names was spent, kic_fs_index_budget_spent(),
                         * 4 + N: the same, and it held N names) */
  gboolean spent;       /* a 3 among them */
  GHashTable *desktop; /* real path -> KicDesktopRead* (stamp NULL): the M records */
  GHashTable *store_stamps; /* store path -> KicFsStamp*: the F records */
  KicPlanMemo *memo;  /* the records (changed_stems still NULL) */
};

/* A directory's lines in the text of a state: kic_state_make() writes
 * them as they were for a listing that is still the one read (state.c). */
typedef struct {
  gsize offset, length;
} ListingText;

/* state.c: the lines LISTING, one of STATE's, had in its text (LENGTH
 * bytes), or NULL.  transfer none */
const char *state_listing_text (const KicState *state, const GPtrArray *listing, gsize *length);

#endif
