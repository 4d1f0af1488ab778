package dev.cubed.primitive;

/**
 * A {@link BlockwiseFunction} whose output elements are copies of input elements put in place (a
 * gather from a small table, a join of whole blocks into larger ones): its work is a copy, linear
 * in the elements it reads, so running several blocks of it one after another in one task costs
 * about what reading them costs. The planner fuses such ops, with pointwise and moving-window ops,
 * into a task that joins many blocks; any other op feeding a join is stored first, so its blocks
 * stay parallel tasks.
 */
@FunctionalInterface
public interface GatherFunction extends BlockwiseFunction {}
