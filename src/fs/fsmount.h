/* fsmount.h - how a directory is mounted: NFS, a squashfs image, an
 * overlay (and over what), or a local file system
 *
 * What one of KDE's calls costs depends on it (README, "Who gains"): on
 * NFS a call the links save is a network round trip, in a squashfs image
 * or on a local disk it is answered from memory.  Read with fstatfs(2)
 * of the directory and, for an overlay, /proc/self/mountinfo's lower
 * layers; nothing here decides anything the run does, -v only tells.
 */
#ifndef KIC_FSMOUNT_H
#define KIC_FSMOUNT_H

#include <glib.h>
#include <sys/vfs.h>

typedef enum {
  KIC_MOUNT_UNKNOWN = 0, /* could not be read */
  KIC_MOUNT_LOCAL,       /* a disk or memory file system of this machine */
  KIC_MOUNT_NFS,
  KIC_MOUNT_NETWORK,     /* another network file system (SMB, Ceph, 9p, AFS) */
  KIC_MOUNT_FUSE,        /* FUSE: sshfs and the like, or local */
  KIC_MOUNT_IMAGE,       /* a read-only image: squashfs, EROFS */
  KIC_MOUNT_OVERLAY,
} KicMountKind;

typedef struct {
  KicMountKind kind;
  const char *fs;        /* its type's name ("nfs", "squashfs", "ext4", ...); static */
  /* for an overlay: the kind and type of its lowest layer that is not
   * local (else of its lowest layer), KIC_MOUNT_UNKNOWN when unknown */
  KicMountKind lower_kind;
  const char *lower_fs;
  /* the image (itself or the overlay's layer) is read from a network
   * block device (/dev/nbd*): squashfs reads its metadata past any page
   * cache, so each read is a request; from a loop device's file it is
   * not (that file's page cache answers again) */
  gboolean nbd;
} KicMount;

/* The kind and name of a file system type (statfs f_type). */
KicMountKind kic_mount_kind_of_magic (unsigned long magic, const char **fs);

/* The lower directories of the overlay mount MNT_ID in MOUNTINFO (the
 * text of /proc/self/mountinfo), top first, unescaped; NULL when that
 * mount is not there or is no overlay.  transfer full */
char **kic_mount_overlay_lowers (const char *mountinfo, guint64 mnt_id);
/* The source (the device) of mount MNT_ID in MOUNTINFO, NULL when it is
 * not there.  transfer full */
char *kic_mount_source (const char *mountinfo, guint64 mnt_id);

/* How the directory open as FD (any descriptor, O_PATH too) is mounted. */
KicMount kic_mount_of_fd (int fd);

/* The calls the above makes, replaced by the unit tests (a file system
 * type this machine cannot mount, an overlay's mountinfo). */
extern int (*kic_mount_fstatfs) (int fd, struct statfs *buf);
extern const char *kic_mount_mountinfo_path;

#endif /* KIC_FSMOUNT_H */
