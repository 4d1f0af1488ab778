/**
 * Array metadata of Zarr formats 2 ({@code .zarray}) and 3 ({@code zarr.json}): {@link
 * dev.cubed.zarr.metadata.MetadataParser} parses and validates a document into {@link
 * dev.cubed.zarr.metadata.ArrayMetadata}, building the codec pipeline it names, and writes it back.
 * It uses the codecs and the stores, and is used by the arrays of {@code dev.cubed.zarr}.
 */
package dev.cubed.zarr.metadata;
