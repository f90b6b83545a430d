/* plan.h - where to plant links so that KDE's search ends early
 *
 * The planner decides, for every Icon= name of the menu, which links to
 * plant, and proves the plan before anything is written: with the planned
 * links added to the picture of the file system, every lookup KDE could
 * make (the menu's names and every name the touched directories hold, at
 * every size from 8 to 256, for each configured theme and for users of any
 * other theme) must give a file with the same content as before.
 *
 * It changes nothing on disk: it works on the KicSystem's index and
 * resolvers, reads the icon files KDE would load (to compare their
 * contents) and converts XPM icons in memory (to decide their PNG twins).
 * It is given the names to plan (menu.h scans the menu for them).
 */
#ifndef KIC_PLAN_H
#define KIC_PLAN_H

#include "config.h"
#include "content.h"
#include "iconloader.h"

#include <glib.h>

typedef enum {
  KIC_NAME_PLANTED,   /* links planted */
  KIC_NAME_UNCHANGED, /* the current theme's own name, or KDE already as fast as a plant would make it */
  KIC_NAME_SKIPPED,   /* no safe place: reason says why */
  KIC_NAME_NOT_FOUND, /* KDE finds nothing to copy */
  KIC_NAME_ABSOLUTE,  /* an absolute path: KDE does not search */
} KicNameStatus;

/* One planted link. */
typedef struct {
  char *link;   /* "<theme dir>/<name><ext>", inside the root */
  char *source; /* the real path of the icon file it stands for */
  char *store;  /* the copy in the store it points to */
  char *theme;  /* the theme of the directory */
  const KicContent *content; /* the content of SOURCE (the plan's table) */
} KicPlant;

/* Frees a KicPlant (a GDestroyNotify for arrays of them). */
void kic_plant_free (gpointer plant);

/* What KDE does for one name at one target size, before and after. */
typedef struct {
  int size;
  char *path;        /* what KDE loads (before; after it is the same content) */
  guint calls_before;
  guint calls_after;
  /* The fewest calls any link of the name's own content at this size
   * could give (one link, in the first directory exact for the size of a
   * theme that probes the file's type and holds no other content under
   * the name), whatever the proof says of other names; calls_before when
   * no link can go anywhere, or when KicPlanOptions.floor is not set. */
  guint calls_floor;
  char *floor_reason;  /* why calls_after is above calls_floor, or NULL */
} KicSizeReport;

typedef struct KicNamePlan_ {
  char *name;          /* the name KDE looks up (Icon= without .png etc.) */
  char *icon;          /* Icon= as written */
  KicNameStatus status;
  char *reason;        /* for SKIPPED and UNCHANGED */
  GPtrArray *plants;   /* KicPlant* */
  GPtrArray *sizes;    /* KicSizeReport*, one per target size (current theme) */
  GPtrArray *banned;   /* themes where its links failed the proof */
  gboolean replan;     /* plan it again without them */
  /* A name of the closure (icon is NULL): not the menu's, planted only
   * so that the links of CLOSURE_FOR in CLOSURE_THEME do not change its
   * own lookup (its dash cut or -symbolic sibling would reach them). */
  struct KicNamePlan_ *closure_for;
  char *closure_theme;
  char *ban_reason;    /* why the proof took its links from a theme, the last time */
  /* KDE loads files of different content at different sizes: its links,
   * if any, are a per-size set (each to the file KDE loads at its
   * directory's sizes) */
  gboolean per_size;
  /* PerSizeSets=false: a per-size set would have made it cheaper (the
   * reason says so; the rebuild's summary counts them) */
  gboolean size_set_helps;
} KicNamePlan;

/* What a previous plan decided (state.h reads it back), for a plan that
 * keeps it wherever no change can reach.  A name's plan only depends on
 * the files whose stems its lookups may try (kic_resolver_lookup_stems():
 * the name, its dash cuts, generic and -symbolic forms), on the links of
 * names that are among those stems, and, through the proof, on every name
 * that may try its links' stem: the names joined by shared stems are
 * planned together, and those no changed stem, no name added to or gone
 * from the menu can reach keep their previous result. */
typedef struct {
  GPtrArray *names;      /* KicNamePlan*: the menu's names as planned (plants' content NULL) */
  GPtrArray *closure;    /* KicNamePlan*: the closure, closure_for pointing into NAMES or CLOSURE */
  GHashTable *verified;  /* name -> GUINT_TO_POINTER (its lookups the proof checked) */
  gboolean floor;        /* the size reports were made with KicPlanOptions.floor */
  gboolean reports;      /* the names have their size reports (none when the
                          * run that made them showed none: no_reports) */
  GHashTable *changed_stems; /* the stems of the files that changed since (a set) */
} KicPlanMemo;

void kic_plan_memo_free (KicPlanMemo *memo);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicPlanMemo, kic_plan_memo_free)

typedef struct {
  GArray *targets;     /* KicTarget */
  char **themes;       /* themes to plant for; NULL: the current theme */
  gboolean per_size_sets; /* plant per-size sets (PerSizeSets=) */
  gboolean unthemed_links; /* links for names KDE finds only outside the
                            * themes (UnthemedLinks=): plan-choose.c */
  const char *store;   /* store directory inside the root */
  GPtrArray *previous; /* link paths a previous run planted that are still ours */
  gboolean floor;      /* work out each name's floor (KicSizeReport.calls_floor) */
  gboolean no_reports; /* make no size reports (KicNamePlan.sizes): nothing
                        * shows them (--quiet, --check; not --json) */
  /* the previous plan made with the same key (kic_plan_build() computes
   * it: the settings and the resolvers, kic_resolver_digest()), or NULL:
   * plan everything */
  KicPlanMemo *(*memo) (const char *key, gpointer data);
  gpointer memo_data;
  /* real path -> SHA-256 (hex) of files whose content a previous run
   * hashed and that have not changed since (kic_content_table_know()) */
  GHashTable *known_contents;
  /* What the writer will refuse, asked before a plan counts on it (NULL:
   * anything goes): may links be planted in DIR (a real directory of a
   * theme; trusted.h), may a file of content CONTENT be copied into the
   * store (content.h, kic_content_bytes(): the one read of the file,
   * through source.h's checks; *WHY says why not)?  A refused directory
   * is no candidate; a name whose file cannot be copied is skipped, with
   * one warning. */
  gboolean (*may_plant) (const char *dir, gpointer data);
  gboolean (*may_copy) (const KicContent *content, char **why, gpointer data);
  gpointer may_data;
} KicPlanOptions;

typedef struct {
  GPtrArray *names;    /* KicNamePlan*, sorted by name */
  GPtrArray *closure;  /* KicNamePlan*: the names planted with them (closure_for set) */
  GHashTable *links;   /* link path -> KicPlant* (borrowed from names) */
  GHashTable *files;   /* store path -> source real path */
  guint n_verified;    /* (name, size, theme) lookups proved unchanged */
  KicContentTable *contents; /* what the plants' contents belong to: it keeps the
                              * bytes of their sources for the writer */
  char *key;           /* what the plan is valid for besides the files (KicPlanOptions.memo) */
  GHashTable *verified; /* name -> GUINT_TO_POINTER (its lookups the proof checked), for the next memo */
  guint n_kept;        /* menu names whose previous result was kept (a memo was used) */
  guint n_replanned;   /* ... and those planned again */
  gboolean gave_up;    /* the proof did not settle (KIC_MAX_PROOF_ROUNDS,
                        * plan-private.h): nothing is planted */
  gboolean reports;    /* the names have their size reports (not no_reports) */
} KicPlan;

/* The sizes the generation's menus ask for, and the default weights.
 * Plasma: 48 px is the hasIcon() lookup every Plasma process makes for
 * every entry at start (kde-lookup.md §7.1), 32 the Kickoff list, 32 and
 * 22 its category column (tests/oracle/FINDINGS.md §h), 16 the rest; KDE 4: Kickoff 32, the classic menu 16; KDE 3: 16. */
GArray *kic_plan_default_targets (const KicProfileTable *profile);

/* Plan ICONS (Icon= values as written, strings; the first of the same
 * lookup name counts).  It cannot fail (a file it cannot read is a name
 * it skips, with the reason).  transfer full */
KicPlan *kic_plan_build (KicSystem *system, const KicPlanOptions *options, const GPtrArray *icons);
void kic_plan_free (KicPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KicPlan, kic_plan_free)

const char *kic_name_status_to_string (KicNameStatus status);
/* The status of that name; FALSE when there is none. */
gboolean kic_name_status_from_string (const char *text, KicNameStatus *status);

/* A KicNamePlan with empty arrays, of NAME (transfer full), and its free
 * function (a GDestroyNotify). */
KicNamePlan *kic_name_plan_new (const char *name);
void kic_name_plan_free (gpointer np);

#endif /* KIC_PLAN_H */
