/**
 * What makes a run durable and resumable: the compute directory ({@link
 * dev.cubed.plan.durable.ComputeDir}) with its commit journal and task markers, the work
 * directories, the write lock that keeps two runs off one target ({@link
 * dev.cubed.plan.durable.TargetBusyException}) and the staged targets ({@link
 * dev.cubed.plan.durable.Targets}). It uses {@code plan.node} only; {@code dev.cubed.plan} drives
 * it.
 */
package dev.cubed.plan.durable;
