/**
 * Evaluating a node's blocks: the {@link dev.cubed.plan.eval.Evaluator} computes a block by walking
 * fused chains of pointwise functions, tiles and streamed folds, re-reading or holding the blocks a
 * chain needs, and the multi-output groups that write several arrays from one pass. It uses {@code
 * plan.node} only; {@code dev.cubed.plan} drives it.
 */
package dev.cubed.plan.eval;
