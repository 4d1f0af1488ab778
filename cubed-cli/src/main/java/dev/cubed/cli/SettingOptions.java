package dev.cubed.cli;

import dev.cubed.Spec;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --setting KEY=VALUE} (repeatable, {@code @Mixin}): any setting of {@link Spec} by name
 * (e.g. {@code fold_groups=false}, {@code tile_bytes=0}, {@code worker_jvm_options=...}), read by
 * the one parser of settings ({@link Spec.Builder#set}) and applied after the command's other
 * options.
 */
final class SettingOptions {
  @Option(
      names = "--setting",
      paramLabel = "KEY=VALUE",
      description =
          "a setting of the engine, repeatable (e.g. fold_groups=false, tile_bytes=0,"
              + " rechunk_intermediate_compression=lz4); applied after the other options; every"
              + " setting is listed in docs/engine.md, \"Settings\"")
  Map<String, String> settings = new LinkedHashMap<>();

  /**
   * Checks every setting with the parser.
   *
   * @throws picocli.CommandLine.ParameterException naming the bad setting and what it allows
   */
  void validate(CommandSpec cmd) {
    for (Map.Entry<String, String> e : settings.entrySet()) {
      try {
        Spec.builder().set(e.getKey(), e.getValue());
      } catch (IllegalArgumentException x) {
        throw Cli.usage(
            cmd, "--setting " + e.getKey() + "=" + e.getValue() + ": " + x.getMessage());
      }
    }
  }

  /** The spec builder with these settings applied. */
  Spec.Builder apply(Spec.Builder b) {
    return b.set(settings);
  }
}
