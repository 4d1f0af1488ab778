/**
 * The codecs: the array-to-bytes codecs ({@link dev.cubed.zarr.codec.ArrayBytesCodec}, {@link
 * dev.cubed.zarr.codec.ShardingCodec}), the bytes-to-bytes compressors and checksums ({@link
 * dev.cubed.zarr.codec.BytesCodecs}), the v2 compressors ({@link dev.cubed.zarr.codec.V2Codec}),
 * Blosc framing with its Java decoder ({@link dev.cubed.zarr.codec.JavaBlosc}), the {@link
 * dev.cubed.zarr.codec.CodecPipeline} that chains them for one chunk, fill values, and the streamed
 * decoders that write a chunk's elements where they go. It uses the stores (a shard is read in
 * ranges) and nothing above them; {@link dev.cubed.zarr.codec.Compression} is what users choose.
 */
package dev.cubed.zarr.codec;
