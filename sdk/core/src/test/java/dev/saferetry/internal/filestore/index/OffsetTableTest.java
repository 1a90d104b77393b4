package dev.saferetry.internal.filestore.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index's hash table against a plain map, with hashes drawn from a handful of values so that
 * almost every entry collides: lookups, removals that move later entries back, growth, and the
 * placing of records in a compacted file with its constant-time switch.
 */
class OffsetTableTest {
  /** offset to hash: offsets are unique, as the offsets of records in a log are. */
  private final Map<Long, Long> model = new HashMap<>();

  private final Random random = new Random(7);

  private long someHash() {
    return 1 + random.nextInt(5);
  }

  private void assertSameAsModel(OffsetTable table) {
    assertThat(table.size()).isEqualTo(model.size());
    model.forEach((offset, hash) -> assertThat(table.slotOf(hash, offset)).isNotNegative());
    int seen = 0;
    for (int slot = 0; slot < table.capacity(); slot++) {
      if (table.hashAt(slot) != 0) {
        assertThat(model).containsEntry(table.offset(slot), table.hashAt(slot));
        seen++;
      }
    }
    assertThat(seen).isEqualTo(model.size());
  }

  @Test
  void collidingEntriesAreFoundAddedChangedAndRemovedLikeInAMap() {
    OffsetTable table = new OffsetTable(4);
    long next = 1;
    for (int op = 0; op < 5_000; op++) {
      int choice = random.nextInt(3);
      if (choice == 0 || model.isEmpty()) {
        long hash = someHash();
        table.add(hash, next);
        model.put(next++, hash);
      } else {
        long offset = new ArrayList<>(model.keySet()).get(random.nextInt(model.size()));
        long hash = model.get(offset);
        int slot = table.slotOf(hash, offset);
        if (choice == 1) {
          table.set(slot, next | OffsetTable.PENDING);
          model.remove(offset);
          model.put(next++ | OffsetTable.PENDING, hash);
        } else {
          table.remove(slot);
          model.remove(offset);
        }
      }
      if (op % 250 == 0) {
        assertSameAsModel(table);
      }
    }
    assertSameAsModel(table);
  }

  @Test
  void placesNotedWhileTheTableChangesAreSwitchedToOnlyOnceEveryRecordHasOne() {
    OffsetTable table = new OffsetTable(4);
    for (long offset = 1; offset <= 300; offset++) {
      long hash = someHash();
      table.add(hash, offset);
      model.put(offset, hash);
    }
    table.startPlacing();
    Map<Long, Long> placedAt = new HashMap<>(); // old offset to new one
    List<Long> offsets = new ArrayList<>(model.keySet());
    long next = 10_000;
    for (long offset : offsets) {
      long hash = model.get(offset);
      if (random.nextInt(4) == 0) { // changed meanwhile: a new record, placed again later
        table.set(table.slotOf(hash, offset), next);
        model.remove(offset);
        model.put(next, hash);
        offset = next++;
      } else if (random.nextInt(10) == 0) {
        table.remove(table.slotOf(hash, offset));
        model.remove(offset);
        continue;
      }
      table.place(table.slotOf(hash, offset), offset + 1_000_000);
      placedAt.put(offset, offset + 1_000_000);
      for (int i = 0; i < 3; i++) { // and new intents arrive, making the table grow
        long newHash = someHash();
        table.add(newHash, next);
        model.put(next, newHash);
        assertThat(table.allPlaced()).isFalse();
        table.place(table.slotOf(newHash, next), next + 1_000_000);
        placedAt.put(next, next + 1_000_000);
        next++;
      }
    }
    long hash = someHash();
    table.add(hash, next); // one last intent without a place yet
    model.put(next, hash);
    assertThat(table.commitPlaces()).isFalse();
    table.place(table.slotOf(hash, next), next + 1_000_000);
    placedAt.put(next, next + 1_000_000);

    assertThat(table.commitPlaces()).isTrue();

    Map<Long, Long> moved = new HashMap<>();
    model.forEach((offset, h) -> moved.put(placedAt.get(offset), h));
    model.clear();
    model.putAll(moved);
    assertSameAsModel(table);
  }
}
