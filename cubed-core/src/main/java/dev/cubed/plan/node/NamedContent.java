package dev.cubed.plan.node;

/**
 * Something in a node's content that already has a name for what it holds, so the node's digest
 * ({@link NodeDigest}) takes that name instead of hashing the data: the in-memory result of a
 * compute kept for later plans ({@code persist}) is named by the digest of the array it is the
 * value of, not by a hash of every element. The name must change whenever the content may differ.
 */
public interface NamedContent {
  /** The content's name, or null to be hashed as usual. */
  String contentName();
}
