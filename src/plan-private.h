/* plan-private.h - what the parts of the planner share (not for the
 * planner's callers: they see plan.h)
 *
 *   plan.c          the run: names, planner set-up, kic_plan_build()
 *   plan-content.c  content identity of what KDE loads, XPM twins
 *   plan-choose.c   candidates and the greedy choice by KDE's cost
 *   plan-sizeset.c  per-size sets
 *   plan-proof.c    the proof and the closure
 *   plan-floor.c    the report: calls before and after, the floor
 */
#ifndef KIC_PLAN_PRIVATE_H
#define KIC_PLAN_PRIVATE_H

#include "plan.h"

/* The sizes any KDE code could ask for that the proof covers. */
#define KIC_MIN_SIZE 8
#define KIC_MAX_SIZE 256

typedef struct {
  KicSystem *system;
  const KicPlanOptions *options;
  KicOverlay *base;       /* the previous run's links hidden: KDE's own state */
  KicOverlay *after;      /* base plus the links planned so far */
  GHashTable *content;    /* real path -> content id */
  GHashTable *plants;     /* link path -> KicPlant* (borrowed from names) */
  GHashTable *plant_name; /* link path -> KicNamePlan* */
  GPtrArray *resolvers;   /* KicResolver*: one per theme, then the proof's only:
                           * "any other theme", and with the KDE platform theme
                           * the same processes without it */
  guint n_planned;        /* the first n_planned resolvers are planned for */
  GPtrArray *theme_names; /* char*: the theme each resolver stands for */
  /* the proof's indexes, made at its first round */
  GHashTable *known;      /* every name a lookup could be asked for (set) */
  GHashTable *stem_names; /* file name stem -> GPtrArray of the known names
                           * whose lookups may try it (borrowed) */
  GPtrArray *reach;       /* per resolver: set of the directories its
                           * themes search (path, and mirrored disk path) */
  GHashTable *unfiled;    /* names of known the proof added that no file
                           * carries (KF6's X-symbolic for a link X) */
  GHashTable *dirty;      /* links planted or dropped since the proof
                           * last looked: what a round must re-check */
  GPtrArray *closure;     /* KicNamePlan*: names planted so others' links hold */
  GHashTable *xpm_as_png; /* real path of an XPM -> "" when it has a PNG twin, else why not */
  GHashTable *dir_keys;   /* KicThemeDir* -> its real path and listing (dir_key()) */
  GHashTable *store_of;   /* store path -> the source planted links claim it for */
  guint rounds;           /* proof rounds so far (KIC_MAX_PROOF_ROUNDS) */
  GHashTable *copyable;   /* source -> "" when may_copy says yes, else why not */
  GHashTable *theme_candidates; /* KicTheme* -> GArray of ThemeCandidate (plan-choose.c) */
  GHashTable *shared_keys; /* KicResolver* -> set of the candidate directories
                            * more than one of its themes lists */
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
  const char *key; /* dir_key (dir): where the link goes, a real path */
  const KicFsDir *listing; /* its listing: kic_resolver_watch()'s key */
  char *file;
} Candidate;

/* plan.c */
void size_report_free (gpointer data);
void name_plan_free (gpointer data);

/* plan-content.c */
const char *content_of_path (Planner *p, const char *path);
const char *link_extension (Planner *p, const char *source);
const char *content_of_result (Planner *p, const KicResult *r, const char *trial_source);

/* plan-choose.c */
const char *dir_key (Planner *p, const KicThemeDir *dir);
GHashTable *dir_keys_new (void);
char *real_file_key (Planner *p, const char *path);
KicPlant *plant_of_result (Planner *p, const KicResult *r);
gboolean claim_store (Planner *p, const char *store, const char *source);
gboolean may_copy (Planner *p, const char *source, const char **why);
gboolean may_plant_dir (Planner *p, const KicThemeDir *dir);
#define UNTHEMED_REASON                                                                                       \
  "KDE finds it only outside the icon themes, and a link in a theme would make every longer name cut back to " \
  "it (NAME-tray, NAME-symbolic, ...) show it instead of nothing (planted only with UnthemedLinks=true)"
GPtrArray *name_ends (Planner *p, const char *name);
const char *theme_forbids (Planner *p, const GPtrArray *ends, const char *name, const KicTheme *theme);
void overlay_restore (Planner *p, const char *dir, const char *name);
KicResult *resolve_with (KicResolver *resolver, const KicOverlay *overlay, const char *name, int size);
void candidate_free (gpointer data);
GPtrArray *plant_candidates (Planner *p, KicResolver *resolver, const KicNamePlan *np, const char *ext,
                             const char *content, gboolean for_floor);
void set_status (KicNamePlan *np, KicNameStatus status, const char *reason);
void plan_name (Planner *p, KicResolver *resolver, KicNamePlan *np);

/* plan-sizeset.c */
void plan_size_set (Planner *p, KicResolver *resolver, KicNamePlan *np, const GPtrArray *before_all,
                    double before);

/* plan-proof.c */
gboolean prove_once (Planner *p, GPtrArray *names, guint *n_verified);
void drop_all_plants (Planner *p, GPtrArray *names, const char *reason);
void replan_banned (Planner *p, GPtrArray *names, guint n_themes);

/* plan-floor.c */
void report_sizes (Planner *p, GPtrArray *names);

#endif /* KIC_PLAN_PRIVATE_H */
