/**
 * Plans and their runs: {@link dev.cubed.plan.Plan} turns a graph of array nodes into stages of
 * chunk tasks, checks their memory ({@link dev.cubed.plan.MemoryBudgetExceededException}) and disk
 * before running, and {@code PlanRun} runs them on an executor. It sits on three sub-packages that
 * do not use it back: {@code plan.node} (the node model), {@code plan.eval} (evaluating a node's
 * blocks, fused and tiled) and {@code plan.durable} (the compute directory, commit journal, task
 * markers and write locks that make a run resumable); the last two know nothing of each other.
 */
package dev.cubed.plan;
