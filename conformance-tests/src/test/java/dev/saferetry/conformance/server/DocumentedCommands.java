package dev.saferetry.conformance.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The shell commands a Markdown document shows in its code blocks, as the words a shell would pass
 * to the program: continuation lines joined, comment lines dropped, quotes removed, a trailing
 * {@code &} dropped. Enough of a shell for the documentation's commands, no more.
 */
final class DocumentedCommands {
  private DocumentedCommands() {}

  /** The commands of each fenced code block of {@code markdown}, block by block. */
  static List<List<List<String>>> blocks(Path markdown) throws IOException {
    List<List<List<String>>> blocks = new ArrayList<>();
    List<List<String>> current = null;
    StringBuilder pending = new StringBuilder();
    for (String line : Files.readAllLines(markdown)) {
      if (line.strip().startsWith("```")) {
        if (current == null) {
          current = new ArrayList<>();
        } else {
          blocks.add(current);
          current = null;
        }
        continue;
      }
      if (current == null || line.strip().startsWith("#")) {
        continue;
      }
      String text = line.strip();
      if (text.endsWith("\\")) {
        pending.append(text, 0, text.length() - 1).append(' ');
        continue;
      }
      pending.append(text);
      List<String> words = words(pending.toString());
      pending.setLength(0);
      if (!words.isEmpty()) {
        current.add(words);
      }
    }
    return blocks;
  }

  /** Splits a command line into words: blanks separate them, quotes group and disappear. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    if (!words.isEmpty() && words.get(words.size() - 1).equals("&")) {
      words.remove(words.size() - 1);
    }
    return words;
  }

  /** The value of {@code -Dexec.args=...} in a Maven command, split into words, or null. */
  static List<String> execArgs(List<String> command) {
    for (String w : command) {
      if (w.startsWith("-Dexec.args=")) {
        return words(w.substring("-Dexec.args=".length()));
      }
    }
    return null;
  }

  /** The words after {@code first} in {@code command} (exclusive), or null when absent. */
  static List<String> after(List<String> command, String first) {
    int i = command.indexOf(first);
    return i < 0 ? null : new ArrayList<>(command.subList(i + 1, command.size()));
  }

  /** The value following {@code option}, or null. */
  static String option(List<String> args, String option) {
    int i = args.indexOf(option);
    return i < 0 || i + 1 >= args.size() ? null : args.get(i + 1);
  }

  /** The Markdown files the project documents commands in, from the repository root. */
  static List<Path> documents(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(root.resolve("README.md"));
    files.add(root.resolve("conformance-tests/README.md"));
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> walk = Files.walk(docs)) {
        walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      }
    }
    return files;
  }
}
