#include "CPlist.h"

#include <stdlib.h>
#include <string.h>

/// The unsigned big-endian integer of `size` (1 to 8) bytes at `p`.
static uint64_t read_be(const uint8_t *p, uint8_t size) {
  uint64_t value = 0;
  for (uint8_t i = 0; i < size; i++) value = (value << 8) | p[i];
  return value;
}

/// The file's trailer, and where its objects end (its offset table).
typedef struct {
  const uint8_t *bytes;
  const uint8_t *table;
  uint64_t table_offset;
  uint8_t offset_size;
  uint8_t ref_size;
  uint64_t count;
} bplist;

/// Object `index`'s header: its type (the marker's high nibble), its size
/// (the low nibble, or the integer object after it) and where its contents
/// start. -1 if its offset or its size's integer is out of range, else 0.
static int object_header(const bplist *plist, uint64_t index, uint8_t *type, uint64_t *size,
                         const uint8_t **contents) {
  uint64_t offset = read_be(plist->table + index * plist->offset_size, plist->offset_size);
  if (offset < 8 || offset >= plist->table_offset) return -1;
  const uint8_t *p = plist->bytes + offset;
  const uint8_t *end = plist->table;
  uint8_t marker = *p++;
  *type = marker & 0xF0;
  *size = marker & 0x0F;
  if (*size == 0x0F && (*type == 0xA0 || *type == 0xC0 || *type == 0xD0 || *type == 0x50 ||
                        *type == 0x60 || *type == 0x70)) {
    // The size follows as an integer object: 0x1n and 2^n bytes.
    if (p >= end || (*p & 0xF0) != 0x10 || (*p & 0x0F) > 3) return -1;
    uint8_t width = (uint8_t)(1u << (*p & 0x0F));
    p++;
    if ((uint64_t)(end - p) < width) return -1;
    *size = read_be(p, width);
    p += width;
  }
  *contents = p;
  return 0;
}

/// Object `index`: -1 if its offset or its size is out of range, 0 if it is
/// not a container, 1 if it is one (an array, a set or a dictionary); then
/// `refs` points at its references and `count` says how many there are (a
/// dictionary's keys and values both).
static int container(const bplist *plist, uint64_t index, const uint8_t **refs,
                     uint64_t *count) {
  uint8_t type;
  uint64_t size;
  const uint8_t *p;
  const uint8_t *end = plist->table;
  if (object_header(plist, index, &type, &size, &p) != 0) return -1;
  if (type != 0xA0 && type != 0xC0 && type != 0xD0) return 0;
  if (type == 0xD0) {
    if (size > UINT64_MAX / 2) return -1;
    size *= 2;
  }
  if (size > (uint64_t)(end - p) / plist->ref_size) return -1;
  *refs = p;
  *count = size;
  return 1;
}

/// Object `index`, if it is a string (ASCII `0x5n`, UTF-16 `0x6n`, UTF-8
/// `0x7n`): 1, with where its characters start, how many bytes they take
/// and their encoding (1 for bytes, 2 for UTF-16); 0 if it is no string;
/// -1 if its size is out of range.
static int string_span(const bplist *plist, uint64_t index, uint64_t *start, uint64_t *length,
                       uint8_t *encoding) {
  uint8_t type;
  uint64_t size;
  const uint8_t *p;
  const uint8_t *end = plist->table;
  if (object_header(plist, index, &type, &size, &p) != 0) return -1;
  if (type != 0x50 && type != 0x60 && type != 0x70) return 0;
  uint8_t unit = type == 0x60 ? 2 : 1;
  if (size > (uint64_t)(end - p) / unit) return -1;
  *start = (uint64_t)(p - plist->bytes);
  *length = size * unit;
  *encoding = unit;
  return 1;
}

/// Whether object `index` is a string holding a NUL character (which
/// libplist 2.2 keeps, then aborts on when its length is asked for).
static int has_nul(const bplist *plist, uint64_t index) {
  uint64_t start, length;
  uint8_t encoding;
  if (string_span(plist, index, &start, &length, &encoding) != 1) return 0;
  const uint8_t *p = plist->bytes + start;
  for (uint64_t i = 0; i + encoding <= length; i += encoding) {
    if (p[i] == 0 && (encoding == 1 || p[i + 1] == 0)) return 1;
  }
  return 0;
}

/// Fills `found` with the key that names object `key` (none if `key` is
/// `NO_KEY`), for the string holding a NUL; `in_key` if it is that key.
static void report_nul(const bplist *plist, uint64_t key, int in_key, tpns_plist_nul *found) {
  if (!found) return;
  *found = (tpns_plist_nul){.in_key = (uint8_t)in_key};
  if (key == UINT64_MAX) return;
  uint64_t start, length;
  uint8_t encoding;
  if (string_span(plist, key, &start, &length, &encoding) != 1) return;
  found->key_start = start;
  found->key_length = length;
  found->key_encoding = encoding;
}

/// A container being walked: its references, the next one to follow, and
/// what its children hold so far.
typedef struct {
  uint64_t index;
  const uint8_t *refs;
  uint64_t count;
  uint64_t next;
  uint32_t depth;
  uint64_t values;
  /// Whether it is a dictionary (its references: the keys, then the values).
  int is_dictionary;
  /// The key it sits under (or its nearest container does), `UINT64_MAX` for none.
  uint64_t key;
} frame;

enum { UNSEEN = 0, OPEN = 1, DONE = 2 };

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/// Whether object `index` is a dictionary (called on a container only).
static int is_dictionary(const bplist *plist, uint64_t index) {
  uint64_t offset = read_be(plist->table + index * plist->offset_size, plist->offset_size);
  return (plist->bytes[offset] & 0xF0) == 0xD0;
}

tpns_plist_shape tpns_plist_binary_shape(const uint8_t *bytes, size_t length,
                                         uint32_t depth_limit, uint64_t value_limit,
                                         tpns_plist_nul *found) {
  if (length < 8 + 32 || memcmp(bytes, "bplist00", 8) != 0) return TPNS_PLIST_SHAPE_MALFORMED;
  const uint8_t *trailer = bytes + length - 32;
  bplist plist = {.bytes = bytes, .offset_size = trailer[6], .ref_size = trailer[7]};
  plist.count = read_be(trailer + 8, 8);
  uint64_t root = read_be(trailer + 16, 8);
  plist.table_offset = read_be(trailer + 24, 8);
  uint64_t objects_end = length - 32;
  if (plist.offset_size == 0 || plist.offset_size > 8 || plist.ref_size == 0 ||
      plist.ref_size > 8 || plist.count == 0 || root >= plist.count ||
      plist.table_offset < 8 || plist.table_offset >= objects_end ||
      plist.count > (objects_end - plist.table_offset) / plist.offset_size) {
    return TPNS_PLIST_SHAPE_MALFORMED;
  }
  plist.table = bytes + plist.table_offset;
  if (depth_limit == 0) return TPNS_PLIST_SHAPE_TOO_DEEP;
  if (depth_limit > 255) depth_limit = 255;

  const uint8_t *refs = NULL;
  uint64_t count = 0;
  int kind = container(&plist, root, &refs, &count);
  if (kind < 0) return TPNS_PLIST_SHAPE_MALFORMED;
  if (kind == 0) {
    if (has_nul(&plist, root)) {
      report_nul(&plist, UINT64_MAX, 0, found);
      return TPNS_PLIST_SHAPE_NUL;
    }
    return value_limit >= 1 ? TPNS_PLIST_SHAPE_OK : TPNS_PLIST_SHAPE_TOO_LARGE;
  }

  // Per object: unseen, open (on the walk's path) or done, and for one done,
  // the depth and the number of values of the tree under it.
  uint8_t *state = calloc(plist.count, 1);
  uint8_t *depths = malloc(plist.count);
  uint64_t *values = malloc(plist.count * sizeof(uint64_t));
  frame *path = malloc(depth_limit * sizeof(frame));
  tpns_plist_shape result = TPNS_PLIST_SHAPE_OK;
  if (!state || !depths || !values || !path) {
    result = TPNS_PLIST_SHAPE_TOO_LARGE;
    goto done;
  }
  path[0] = (frame){.index = root,
                    .refs = refs,
                    .count = count,
                    .is_dictionary = is_dictionary(&plist, root),
                    .key = UINT64_MAX};
  state[root] = OPEN;
  uint32_t levels = 1;
  while (levels > 0) {
    frame *top = &path[levels - 1];
    uint32_t child_depth;
    uint64_t child_values;
    if (top->next < top->count) {
      uint64_t position = top->next;
      uint64_t child = read_be(top->refs + position * plist.ref_size, plist.ref_size);
      top->next++;
      // The key the child sits under: itself for a key, a value's own key,
      // else (an array's item) the container's.
      int child_is_key = top->is_dictionary && position < top->count / 2;
      uint64_t key = top->key;
      if (top->is_dictionary && !child_is_key) {
        key = read_be(top->refs + (position - top->count / 2) * plist.ref_size, plist.ref_size);
        if (key >= plist.count) key = UINT64_MAX;
      }
      if (child >= plist.count || state[child] == OPEN) {
        result = TPNS_PLIST_SHAPE_MALFORMED;  // out of range, or a cycle
        goto done;
      }
      if (state[child] == DONE) {
        child_depth = depths[child];
        child_values = values[child];
      } else {
        kind = container(&plist, child, &refs, &count);
        if (kind < 0) {
          result = TPNS_PLIST_SHAPE_MALFORMED;
          goto done;
        }
        if (levels + 1 > depth_limit) {
          result = TPNS_PLIST_SHAPE_TOO_DEEP;
          goto done;
        }
        if (kind == 1) {
          path[levels++] = (frame){.index = child,
                                   .refs = refs,
                                   .count = count,
                                   .is_dictionary = is_dictionary(&plist, child),
                                   .key = key};
          state[child] = OPEN;
          continue;
        }
        if (has_nul(&plist, child)) {
          report_nul(&plist, child_is_key ? child : key, child_is_key, found);
          result = TPNS_PLIST_SHAPE_NUL;
          goto done;
        }
        state[child] = DONE;
        child_depth = depths[child] = 1;
        child_values = values[child] = 1;
      }
    } else {
      // The container is walked: what it holds is known, and goes to its parent.
      child_depth = top->depth + 1;
      child_values = add_saturating(top->values, 1);
      state[top->index] = DONE;
      depths[top->index] = (uint8_t)child_depth;
      values[top->index] = child_values;
      if (child_values > value_limit) {
        result = TPNS_PLIST_SHAPE_TOO_LARGE;
        goto done;
      }
      if (--levels == 0) break;
      top = &path[levels - 1];
    }
    if (levels + child_depth > depth_limit) {
      result = TPNS_PLIST_SHAPE_TOO_DEEP;
      goto done;
    }
    if (child_depth > top->depth) top->depth = child_depth;
    top->values = add_saturating(top->values, child_values);
    if (top->values > value_limit) {
      result = TPNS_PLIST_SHAPE_TOO_LARGE;
      goto done;
    }
  }
done:
  free(state);
  free(depths);
  free(values);
  free(path);
  return result;
}
