// libplist for Swift, plus a check libplist does not make.
#ifndef TPNS_CPLIST_H
#define TPNS_CPLIST_H

#include <plist/plist.h>
#include <stddef.h>
#include <stdint.h>

/// What ``tpns_plist_binary_shape`` found.
typedef enum {
  /// Within the limits (libplist still decides whether it is valid).
  TPNS_PLIST_SHAPE_OK = 0,
  /// Not a binary property list: a bad trailer, an offset or a reference out
  /// of range, a cycle.
  TPNS_PLIST_SHAPE_MALFORMED = 1,
  /// Containers nest deeper than the limit.
  TPNS_PLIST_SHAPE_TOO_DEEP = 2,
  /// The tree it describes holds more values than the limit.
  TPNS_PLIST_SHAPE_TOO_LARGE = 3,
} tpns_plist_shape;

/// Walks the containers of the binary property list in `bytes` (`bplist00`)
/// without building anything, and says whether libplist may read it:
/// libplist 2.2 recurses once per level, checking every level above at each
/// one, and copies a container each time it is referenced, so a small file
/// could run it out of stack, time or memory. The top value is at depth 1;
/// `depth_limit` is the deepest level a value may sit at, `value_limit` the
/// most values (each reference counted, dictionary keys included) the tree
/// may hold. Every object is looked at once: O(objects + references), and
/// 10 bytes of memory per object.
tpns_plist_shape tpns_plist_binary_shape(const uint8_t *_Nonnull bytes, size_t length,
                                         uint32_t depth_limit, uint64_t value_limit);

#endif
