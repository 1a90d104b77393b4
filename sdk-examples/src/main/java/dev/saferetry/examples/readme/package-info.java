/**
 * The README's quick start, compiled: the build fails if the README shows code that does not
 * compile, and {@code ReadmeSnippetTest} fails if the README's copy differs from this one.
 */
package dev.saferetry.examples.readme;
