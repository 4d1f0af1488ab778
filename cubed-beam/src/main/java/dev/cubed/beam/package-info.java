/**
 * The {@code beam} executor: runs a compute as an Apache Beam pipeline, one stage per operation
 * (see {@link dev.cubed.beam.BeamExecutor}); chosen with {@code Spec.builder().executor("beam")} or
 * {@code --executor beam}, configured with {@code beam.*} executor options.
 */
package dev.cubed.beam;
