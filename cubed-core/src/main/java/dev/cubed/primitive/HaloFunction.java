package dev.cubed.primitive;

/**
 * A {@link BlockwiseFunction} of an op whose tasks read their own input blocks plus a bounded halo
 * of neighbouring blocks along one axis (a moving window): each input block is read by its own task
 * and by the few tasks whose windows reach into it. The planner may then fuse an input that is a
 * cheap elementwise-like chain (recomputing it for the halo reads, instead of writing it and
 * reading it back), and may recompute such an op in each of its consumers like an elementwise op.
 */
@FunctionalInterface
public interface HaloFunction extends BlockwiseFunction {}
