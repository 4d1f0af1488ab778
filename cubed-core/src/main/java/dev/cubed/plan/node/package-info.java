/**
 * The array node model every part of a plan shares: {@link dev.cubed.plan.node.ArrayNode} (a
 * stored, in-memory or computed array with its shape, chunks and dtype), {@link
 * dev.cubed.plan.node.ChunkGrid}, the digests that name a node's data, {@link
 * dev.cubed.plan.node.PlanConfig} and {@link dev.cubed.plan.node.PlanSummary}. It uses no other
 * package of plan.
 */
package dev.cubed.plan.node;
