package dev.saferetry.internal.filestore.index;

/**
 * Where in the log the latest record of every live intent is: an open-addressing hash table of
 * {@link IntentHash} to file offset, both in one {@code long} array (16 bytes a slot, side by side
 * so that a lookup touches one cache line; at most three quarters full), so that a million intents
 * cost tens of megabytes, not hundreds. The offset's top bit marks a pending intent, whose full
 * record the index also keeps in memory.
 *
 * <p>While a compaction runs, a second array of the same shape holds, for every slot, where its
 * record will be in the compacted file; installing the compacted file then swaps the arrays instead
 * of visiting every slot under the store's lock. Changing a slot's offset forgets its new place, so
 * a record changed meanwhile is placed again by the compaction before it may finish.
 *
 * <p>Not thread-safe: the store's lock guards it. Slot numbers are valid until the next change.
 */
public final class OffsetTable {
  /** The flag of a pending intent's offset. */
  public static final long PENDING = Long.MIN_VALUE;

  private static final long NOT_PLACED = Long.MAX_VALUE;

  // Slot i: hash at 2i (0 if empty), offset at 2i + 1.
  private long[] slots;

  // While placing: the same hashes, and each record's offset in the compacted file.
  private long[] placed;

  private int unplaced;
  private int size;
  private int mask;
  private long touched;

  /** A table with room for about {@code expected} intents before it grows. */
  OffsetTable(int expected) {
    int capacity = 16;
    while (capacity * 3L < expected * 4L && capacity < (1 << 29)) {
      capacity *= 2;
    }
    allocate(capacity);
  }

  private void allocate(int capacity) {
    slots = new long[capacity * 2];
    mask = capacity - 1;
  }

  int size() {
    return size;
  }

  int capacity() {
    return mask + 1;
  }

  /** The hash in {@code slot}, or 0 if it is empty. */
  long hashAt(int slot) {
    return slots[2 * slot];
  }

  /** The offset of the record in {@code slot}, with the {@link #PENDING} flag if it is pending. */
  long offset(int slot) {
    return slots[2 * slot + 1];
  }

  static boolean isPending(long offset) {
    return offset < 0;
  }

  static long position(long offset) {
    return offset & ~PENDING;
  }

  /**
   * The first slot after {@code after} (or from the start, if -1) that holds {@code hash}, or -1.
   */
  int probe(long hash, int after) {
    int i = after < 0 ? home(hash) : (after + 1) & mask;
    long found;
    while ((found = slots[2 * i]) != 0) {
      if (found == hash) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  /**
   * Reads the slot {@code hash} would start at, so that a lookup of it soon finds it in the cache;
   * reading the slots of many hashes one after the other lets their memory reads overlap.
   */
  void touch(long hash) {
    touched += slots[2 * home(hash)];
  }

  /** The slot holding exactly {@code hash} and {@code offset} (flag included), or -1. */
  public int slotOf(long hash, long offset) {
    for (int slot = probe(hash, -1); slot >= 0; slot = probe(hash, slot)) {
      if (slots[2 * slot + 1] == offset) {
        return slot;
      }
    }
    return -1;
  }

  /** Adds an intent that is not in the table. */
  void add(long hash, long offset) {
    if ((size + 1) * 4L > capacity() * 3L) {
      grow();
    }
    int slot = insert(slots, hash, offset);
    size++;
    if (placed != null) {
      placed[2 * slot] = hash;
      placed[2 * slot + 1] = NOT_PLACED;
      unplaced++;
    }
  }

  private int insert(long[] into, long hash, long offset) {
    int i = home(hash);
    while (into[2 * i] != 0) {
      i = (i + 1) & mask;
    }
    into[2 * i] = hash;
    into[2 * i + 1] = offset;
    return i;
  }

  /** Points {@code slot} at a new record. */
  void set(int slot, long offset) {
    slots[2 * slot + 1] = offset;
    if (placed != null && placed[2 * slot + 1] != NOT_PLACED) {
      placed[2 * slot + 1] = NOT_PLACED;
      unplaced++;
    }
  }

  /** Removes {@code slot}, moving later entries of its run back so that no probe stops early. */
  public void remove(int slot) {
    if (placed != null && placed[2 * slot + 1] == NOT_PLACED) {
      unplaced--;
    }
    int hole = slot;
    int i = (slot + 1) & mask;
    long hash;
    while ((hash = slots[2 * i]) != 0) {
      if (((i - home(hash)) & mask) >= ((i - hole) & mask)) {
        move(slots, i, hole);
        if (placed != null) {
          move(placed, i, hole);
        }
        hole = i;
      }
      i = (i + 1) & mask;
    }
    slots[2 * hole] = 0;
    slots[2 * hole + 1] = 0;
    if (placed != null) {
      placed[2 * hole] = 0;
      placed[2 * hole + 1] = 0;
    }
    size--;
  }

  private static void move(long[] array, int from, int to) {
    array[2 * to] = array[2 * from];
    array[2 * to + 1] = array[2 * from + 1];
  }

  /** Starts noting where each record goes in a compacted file. */
  public void startPlacing() {
    placed = new long[slots.length];
    for (int i = 0; i < slots.length; i += 2) {
      placed[i] = slots[i];
      placed[i + 1] = NOT_PLACED;
    }
    unplaced = size;
  }

  /** Notes that the record of {@code slot} is at {@code position} in the compacted file. */
  public void place(int slot, long position) {
    if (placed[2 * slot + 1] == NOT_PLACED) {
      unplaced--;
    }
    placed[2 * slot + 1] = position | (slots[2 * slot + 1] & PENDING);
  }

  /** Whether every live record has its place in the compacted file. */
  public boolean allPlaced() {
    return placed != null && unplaced == 0;
  }

  /**
   * Switches every slot to its place in the compacted file, in constant time.
   *
   * @return false, changing nothing, if a record has no place yet
   */
  public boolean commitPlaces() {
    if (!allPlaced()) {
      return false;
    }
    slots = placed;
    placed = null;
    return true;
  }

  /** Stops noting places (the compaction was given up). */
  public void stopPlacing() {
    placed = null;
  }

  private void grow() {
    long[] oldSlots = slots;
    long[] oldPlaced = placed;
    allocate(capacity() * 2);
    placed = oldPlaced == null ? null : new long[slots.length];
    for (int i = 0; i < oldSlots.length; i += 2) {
      if (oldSlots[i] != 0) {
        int slot = insert(slots, oldSlots[i], oldSlots[i + 1]);
        if (placed != null) {
          placed[2 * slot] = oldSlots[i];
          placed[2 * slot + 1] = oldPlaced[i + 1];
        }
      }
    }
  }

  private int home(long hash) {
    return (int) (hash ^ (hash >>> 32)) & mask;
  }
}
