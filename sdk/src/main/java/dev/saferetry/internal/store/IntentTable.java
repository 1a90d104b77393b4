package dev.saferetry.internal.store;

import java.util.Arrays;

/**
 * Where in the log the latest record of every live intent is: an open-addressing hash table of
 * {@link IntentHash} to file offset, in two {@code long} arrays (16 bytes a slot, at most three
 * quarters full), so that a million intents cost tens of megabytes, not hundreds. The offset's top
 * bit marks a pending intent, whose full record the index also keeps in memory.
 *
 * <p>While a compaction runs, a third array holds, for every slot, where its record will be in the
 * compacted file; installing the compacted file then swaps the arrays instead of visiting every
 * slot under the store's lock. Changing a slot's offset forgets its new place, so a record changed
 * meanwhile is placed again by the compaction before it may finish.
 *
 * <p>Not thread-safe: the store's lock guards it. Slot numbers are valid until the next change.
 */
final class IntentTable {
  /** The flag of a pending intent's offset. */
  static final long PENDING = Long.MIN_VALUE;

  private static final long NOT_PLACED = Long.MAX_VALUE;

  private long[] hashes;
  private long[] offsets;
  private long[] placed;
  private int unplaced;
  private int size;
  private int mask;

  IntentTable() {
    allocate(16);
  }

  private void allocate(int capacity) {
    hashes = new long[capacity];
    offsets = new long[capacity];
    mask = capacity - 1;
  }

  int size() {
    return size;
  }

  int capacity() {
    return hashes.length;
  }

  /** The hash in {@code slot}, or 0 if it is empty. */
  long hashAt(int slot) {
    return hashes[slot];
  }

  /** The offset of the record in {@code slot}, with the {@link #PENDING} flag if it is pending. */
  long offset(int slot) {
    return offsets[slot];
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
    while (hashes[i] != 0) {
      if (hashes[i] == hash) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  /** The slot holding exactly {@code hash} and {@code offset} (flag included), or -1. */
  int slotOf(long hash, long offset) {
    for (int slot = probe(hash, -1); slot >= 0; slot = probe(hash, slot)) {
      if (offsets[slot] == offset) {
        return slot;
      }
    }
    return -1;
  }

  /** Adds an intent that is not in the table. */
  void add(long hash, long offset) {
    if ((size + 1) * 4L > hashes.length * 3L) {
      grow();
    }
    int slot = insert(hash, offset);
    if (placed != null) {
      placed[slot] = NOT_PLACED;
      unplaced++;
    }
  }

  private int insert(long hash, long offset) {
    int i = home(hash);
    while (hashes[i] != 0) {
      i = (i + 1) & mask;
    }
    hashes[i] = hash;
    offsets[i] = offset;
    size++;
    return i;
  }

  /** Points {@code slot} at a new record. */
  void set(int slot, long offset) {
    offsets[slot] = offset;
    if (placed != null && placed[slot] != NOT_PLACED) {
      placed[slot] = NOT_PLACED;
      unplaced++;
    }
  }

  /** Removes {@code slot}, moving later entries of its run back so that no probe stops early. */
  void remove(int slot) {
    if (placed != null && placed[slot] == NOT_PLACED) {
      unplaced--;
    }
    int hole = slot;
    int i = (slot + 1) & mask;
    while (hashes[i] != 0) {
      int home = home(hashes[i]);
      if (((i - home) & mask) >= ((i - hole) & mask)) {
        hashes[hole] = hashes[i];
        offsets[hole] = offsets[i];
        if (placed != null) {
          placed[hole] = placed[i];
        }
        hole = i;
      }
      i = (i + 1) & mask;
    }
    hashes[hole] = 0;
    offsets[hole] = 0;
    size--;
  }

  /** Starts noting where each record goes in a compacted file. */
  void startPlacing() {
    placed = new long[hashes.length];
    Arrays.fill(placed, NOT_PLACED);
    unplaced = size;
  }

  /** Notes that the record of {@code slot} is at {@code position} in the compacted file. */
  void place(int slot, long position) {
    if (placed[slot] == NOT_PLACED) {
      unplaced--;
    }
    placed[slot] = position | (offsets[slot] & PENDING);
  }

  /** Whether every live record has its place in the compacted file. */
  boolean allPlaced() {
    return placed != null && unplaced == 0;
  }

  /**
   * Switches every slot to its place in the compacted file, in constant time.
   *
   * @return false, changing nothing, if a record has no place yet
   */
  boolean commitPlaces() {
    if (unplaced != 0) {
      return false;
    }
    offsets = placed;
    placed = null;
    return true;
  }

  /** Stops noting places (the compaction was given up). */
  void stopPlacing() {
    placed = null;
  }

  private void grow() {
    long[] oldHashes = hashes;
    long[] oldOffsets = offsets;
    long[] oldPlaced = placed;
    allocate(hashes.length * 2);
    placed = oldPlaced == null ? null : new long[hashes.length];
    size = 0;
    for (int i = 0; i < oldHashes.length; i++) {
      if (oldHashes[i] != 0) {
        int slot = insert(oldHashes[i], oldOffsets[i]);
        if (placed != null) {
          placed[slot] = oldPlaced[i];
        }
      }
    }
  }

  private int home(long hash) {
    return (int) (hash ^ (hash >>> 32)) & mask;
  }
}
