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
  /// A string or a key holds a NUL character: libplist 2.2 reads it, then
  /// aborts the process (an assertion) when its length is asked for.
  TPNS_PLIST_SHAPE_NUL = 4,
} tpns_plist_shape;

/// The string with a NUL that ``tpns_plist_binary_shape`` found: the key it
/// is, or sits under (for an array's item, the key of the array or of the
/// nearest container that has one), as a span of the file's bytes.
typedef struct {
  /// Where the key's characters start in the file; 0 (and `key_length` 0)
  /// when no key names it (the top value, or an item of the top array).
  uint64_t key_start;
  /// How many bytes its characters take.
  uint64_t key_length;
  /// 1: bytes (ASCII or UTF-8); 2: UTF-16, big-endian.
  uint8_t key_encoding;
  /// Whether the NUL is in that key itself.
  uint8_t in_key;
} tpns_plist_nul;

/// Walks the containers of the binary property list in `bytes` (`bplist00`)
/// without building anything, and says whether libplist may read it:
/// libplist 2.2 recurses once per level, checking every level above at each
/// one, and copies a container each time it is referenced, so a small file
/// could run it out of stack, time or memory. The top value is at depth 1;
/// `depth_limit` is the deepest level a value may sit at, `value_limit` the
/// most values (each reference counted, dictionary keys included) the tree
/// may hold. Every object is looked at once: O(objects + references), and
/// 10 bytes of memory per object. Every string met (each key too) is
/// looked at for a NUL; `found`, if not NULL, says where one is.
tpns_plist_shape tpns_plist_binary_shape(const uint8_t *_Nonnull bytes, size_t length,
                                         uint32_t depth_limit, uint64_t value_limit,
                                         tpns_plist_nul *_Nullable found);

#endif
