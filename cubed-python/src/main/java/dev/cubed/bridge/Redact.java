package dev.cubed.bridge;

import java.util.regex.Pattern;

/**
 * Hides credentials in URLs before text leaves the bridge (error replies, its standard error):
 * the user information of {@code scheme://user:password@host/...} becomes {@code ***}, giving
 * {@code scheme://***@host/...}. A token given as the user name alone ({@code
 * https://TOKEN@host}) is hidden the same way. Text without such URLs is returned unchanged.
 */
final class Redact {
  /** scheme "://" userinfo "@": userinfo without '/', whitespace, quotes or a second '@'. */
  private static final Pattern USERINFO = Pattern.compile(
      "([A-Za-z][A-Za-z0-9+.-]*://)[^/\\s@'\"<>]+@");

  private Redact() {}

  /** {@code text} with the user information of every URL in it replaced by {@code ***}. */
  static String urls(String text) {
    return text == null ? null : USERINFO.matcher(text).replaceAll("$1***@");
  }
}
