/* plan-private.h - what the parts of the planner share (not for the
 * planner's callers: they see plan.h)
 *
 *   plan.c          the run: names, planner set-up, kic_plan_build()
 *   plan-content.c  content identity of what KDE loads, XPM twins
 *   plan-candidates.c a name's candidates: where root may plant, which themes agree
 *   plan-choose.c   the greedy choice among them by KDE's cost
 *   plan-sizeset.c  per-size sets
 *   plan-proof.c    the proof and the closure
 *   plan-known.c    the names a lookup could be asked for (the proof's index)
 *   plan-floor.c    the report: calls before and after, the floor
 *   plan-memo.c     keeping a previous plan's results where no change reaches
 */
#ifndef KIC_PLAN_PRIVATE_H
#define KIC_PLAN_PRIVATE_H

#include "content.h"
#include "plan.h"

/* The sizes any KDE code could ask for that the proof covers. */
#define KIC_MIN_SIZE 8
#define KIC_MAX_SIZE 256

typedef struct _PlanKnown PlanKnown;

typedef struct {
  KicSystem *system;
  const KicPlanOptions *options;
  KicOverlay *base;       /* the previous run's links hidden: KDE's own state */
  KicOverlay *after;      /* base plus the links planned so far */
  KicContentTable *contents; /* what each file shows the user (the plan keeps it) */
  GHashTable *plants;     /* link path -> KicPlant* (borrowed from names): plan_plants_add(), plan_plants_remove() */
  GHashTable *plant_files; /* file name of a planted link -> how many (plan_content_of_result()'s filter) */
  GHashTable *plant_name; /* link path -> KicNamePlan* */
  GPtrArray *resolvers;   /* KicResolver*: one per theme, then the proof's only:
                           * "any other theme", and with the KDE platform theme
                           * the same processes without it */
  guint n_planned;        /* the first n_planned resolvers are planned for */
  GPtrArray *theme_names; /* char*: the theme each resolver stands for */
  /* the proof's indexes, made at its first round */
  PlanKnown *known;       /* every name a lookup could be asked for (plan-known.c) */
  GHashTable *stem_names; /* file name stem -> GPtrArray of the known names
                           * whose lookups may try it (borrowed), as asked
                           * (plan_names_trying()) */
  GPtrArray *reach;       /* per resolver: set of the directories its
                           * themes search (path, and mirrored disk path) */
  GHashTable *unfiled;    /* names of known the proof added that no file
                           * carries (KF6's X-symbolic for a link X) */
  GHashTable *dirty;      /* links planted or dropped since the proof
                           * last looked: what a round must re-check */
  GPtrArray *closure;     /* KicNamePlan*: names planted so others' links hold */
  GHashTable *verified;   /* name -> GUINT_TO_POINTER (lookups the proof checked) */
  gboolean unsure;        /* the proof met a change it could not pin on a link */
  gboolean store_clash;   /* two sources claimed one store path (plan_claim_store()) */
  GHashTable *dir_keys;   /* KicThemeDir* -> its real path and listing (plan_dir_key()) */
  GHashTable *store_of;   /* store path -> the source planted links claim it for */
  guint rounds;           /* proof rounds so far (KIC_MAX_PROOF_ROUNDS) */
  GHashTable *copyable;   /* source -> "" when may_copy says yes, else why not */
  GHashTable *unwritable; /* link file names plan_may_write() refused (a set: warned once) */
  GHashTable *unlisted_themes; /* KicTheme* -> 1: it has a directory whose names
                               * are not known, 2: none (plan_theme_forbids()) */
  gboolean copy_refused;  /* may_copy (or plan_may_write()) said no to some source: a name skipped
                           * with a warning, which leaves no state (plan-memo.c) */
  gboolean with_memo;     /* a previous plan is kept: a refusal drops it, and
                           * the full plan that follows gives the warning */
  GHashTable *theme_candidates; /* KicTheme* -> GArray of ThemeCandidate (plan-choose.c) */
  GHashTable *shared_keys; /* KicResolver* -> set of the candidate directories
                            * more than one of its themes lists */
  GHashTable *before_at_targets; /* menu name's KicNamePlan* -> GPtrArray of the KicResult*
                                  * of plan_name()'s lookups at the target
                                  * sizes with p->base, for the first
                                  * resolver: the report's "before" */
} Planner;

/* The proof's rounds: each round after the first follows a name that
 * lost its links in a theme, so a round is needed per theme taken from
 * one name; the realistic tree needs 2 (breeze, oxygen: tests/oracle),
 * and no search path of Debian's has more than five themes.  Past this
 * many the plan is dropped whole rather than let a hostile tree (a chain
 * of themes each of which breaks another lookup) keep the lock. */
#define KIC_MAX_PROOF_ROUNDS 16

typedef struct {
  const KicTheme *theme;
  const KicThemeDir *dir;
  const char *key; /* plan_dir_key (dir): where the link goes, a real path */
  const KicFsDir *listing; /* its listing: kic_priced_watch_new()'s key */
  char *file; /* a GRefString (g_ref_string_release()) */
} Candidate;

/* plan.c */
void plan_size_report_free (gpointer data);
void plan_name_plan_free (gpointer data);

/* plan-content.c */
void plan_plants_add (Planner *p, KicPlant *plant);
void plan_plants_remove (Planner *p, const char *link);
const KicContent *plan_content_of_path (Planner *p, const char *path);
const char *plan_link_extension (Planner *p, const char *source);
const KicContent *plan_content_of_result (Planner *p, const KicResult *r, const char *trial_source);
/* The last result of a loop over one name's sizes and its content: KDE
 * loads one file over runs of sizes, and within such a loop the plan does
 * not change, so a result equal to the last one has the last one's
 * content (plan_content_of_sized()).  Start each loop with { 0 }. */
typedef struct {
  const KicResult *result;
  const KicContent *content;
} PlanLastContent;
const KicContent *plan_content_of_sized (Planner *p, const KicResult *r, PlanLastContent *last);

/* plan-choose.c */
KicPlant *plan_plant_of_result (Planner *p, const KicResult *r);
gboolean plan_claim_store (Planner *p, const char *store, const char *source);
gboolean plan_may_write (Planner *p, const char *name, const char *ext, const char *source, const char *store);
#define UNWRITABLE_REASON                                                                                     \
  "its link or its copy would have a name the writer cannot write safely (a control character, or a name "   \
  "too long for a temporary name beside it)"
#define UNTHEMED_REASON                                                                                       \
  "KDE finds it only outside the icon themes, and a link in a theme would make every longer name cut back to " \
  "it (NAME-tray, NAME-symbolic, ...) show it instead of nothing (planted only with UnthemedLinks=true)"
#define UNLISTED_REASON                                                                                       \
  "KDE finds it in a directory users may write that holds more names than are read of one: what it holds is " \
  "not known"
#define UNLISTED_FORBIDS                                                                                      \
  "a later theme has a directory whose names are not known (one users may write past the bound on names "     \
  "read, or one not every user may search): a name there cut back to it could meet the link"
void plan_overlay_restore (Planner *p, const char *dir, const char *name);
KicResult *plan_resolve_with (KicResolver *resolver, const KicOverlay *overlay, const char *name, int size);
void plan_candidate_free (gpointer data);
void plan_set_status (KicNamePlan *np, KicNameStatus status, const char *reason);
void plan_name (Planner *p, KicResolver *resolver, KicNamePlan *np);

/* plan-sizeset.c */
/* ONLY_TRY (PerSizeSets=false): only whether a set would make the name
 * cheaper, for its reason; nothing is planted. */
void plan_size_set (Planner *p, KicResolver *resolver, KicNamePlan *np, const GPtrArray *before_all,
                    double before, gboolean only_try);

/* plan-proof.c */
void plan_proof_index (Planner *p, GPtrArray *names);
gboolean plan_prove_once (Planner *p, GPtrArray *names, guint *n_verified);
void plan_drop_all_plants (Planner *p, GPtrArray *names, const char *reason);
void plan_replan_banned (Planner *p, GPtrArray *names, guint n_themes);
void plan_know_symbolic (Planner *p, const char *stem);

/* plan-known.c: the known names (NAMES, the menu's, among them); the
 * table of them is made once the questions have checked this many
 * directories per name the directories hold (16; test-plan.c sets 0, so
 * that the table answers from the first question, and compares) */
extern guint plan_known_checks_per_name;
void plan_known_init (Planner *p, GPtrArray *names);
void plan_known_free (PlanKnown *known);
gboolean plan_is_known (Planner *p, const char *name);
const char *plan_add_known_name (Planner *p, const char *name);
GPtrArray *plan_names_trying (Planner *p, const char *stem);

/* plan-floor.c */
void plan_report_sizes (Planner *p, GPtrArray *names, GHashTable *only);

/* plan-memo.c */
GHashTable *plan_memo_restore (Planner *p, GPtrArray *names, KicPlanMemo *memo, guint *n_verified);

/* plan-candidates.c */
const char *plan_dir_key (Planner *p, const KicThemeDir *dir);
GHashTable *plan_dir_keys_new (void);
char *plan_real_file_key (Planner *p, const char *path);
gboolean plan_may_copy (Planner *p, const char *source, const char **why);
gboolean plan_may_plant_dir (Planner *p, const KicThemeDir *dir);
/* Add to CHECKSUM every directory the themes planted for offer as a
 * candidate (the writer's verdict on each, plan_may_plant_dir(), included):
 * part of the plan's key, since a directory that became plantable or not
 * changes plans that no listing tells of. */
void plan_digest_candidates (Planner *p, KicSha256 *checksum);
GPtrArray *plan_name_ends (Planner *p, const char *name);
/* plan-candidates.c: count every directory the run searches against the
 * budget on users' names, and settle it (kic_fs_index_budget_settle()) */
void plan_count_user_names (Planner *p);
const char *plan_theme_forbids (Planner *p, const GPtrArray *ends, const char *name, const KicTheme *theme);
GPtrArray *plan_plant_candidates (Planner *p, KicResolver *resolver, const KicNamePlan *np, const char *ext,
                                  const KicContent *content, gboolean for_floor);
gboolean plan_theme_agrees (Planner *p, KicResolver *resolver, const KicTheme *theme, const char *name, const KicContent *content);

#endif
