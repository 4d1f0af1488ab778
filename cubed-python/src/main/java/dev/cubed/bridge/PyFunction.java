package dev.cubed.bridge;

import dev.cubed.nd.DType;
import dev.cubed.nd.NDArray;
import dev.cubed.primitive.BlockwiseFunction;
import dev.cubed.runtime.TaskWorker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The block function of a Python op: each call runs the user's Python function (shipped as the
 * cloudpickle bytes {@code payload}) on the input blocks in a Python worker process of this JVM
 * ({@link PythonWorkers}) and returns its output block. The worker's resident set during the task
 * is bounded by {@code rssBound} (the spec's allowedMem): a worker passing it is killed and the
 * attempt fails with a message saying so. The worker's pid and peak resident set go to the task's
 * event ({@link TaskWorker}).
 *
 * @param key a digest of the payload (a worker keeps each function it was sent under its key)
 * @param payload cloudpickle bytes of (function, arguments with the blocks' places, keyword
 *     arguments)
 * @param python the Python executable of the client that made the plan
 * @param path that client's {@code sys.path}
 * @param label the function's name, for messages
 * @param dtype the output dtype
 * @param outShape the output's shape
 * @param outChunks the output's (regular) chunk sizes
 * @param rssBound a worker's resident set bound during a task, bytes (0: none)
 */
record PyFunction(
    String key,
    byte[] payload,
    String python,
    List<String> path,
    String label,
    DType dtype,
    long[] outShape,
    long[] outChunks,
    long rssBound)
    implements BlockwiseFunction {
  private static final long serialVersionUID = 1L;

  @Override
  public NDArray apply(List<Object> args, long[] outCoords) throws Exception {
    List<NDArray> blocks = new ArrayList<>(args.size());
    for (Object a : args) {
      blocks.add((NDArray) a);
    }
    long[] expect = new long[outShape.length];
    for (int d = 0; d < expect.length; d++) {
      expect[d] = Math.min(outChunks[d], outShape[d] - outCoords[d] * outChunks[d]);
    }
    String what = "block " + Arrays.toString(outCoords) + " of the Python op " + label;
    PythonWorker w = PythonWorkers.acquire(new PythonWorkers.Kind(python, path));
    boolean healthy = false;
    PythonWorkers.busy(w, rssBound, what);
    try {
      PythonWorker.Result r = w.run(this, blocks, expect);
      if (rssBound > 0 && r.vmHwm() > rssBound) {
        // a peak between two polls of the monitor: the worker reported it with the block
        throw new PythonWorker.PythonWorkerDiedException(
            PythonWorkers.overBound(w.pid(), what, r.vmHwm(), rssBound));
      }
      healthy = true;
      TaskWorker.ranIn("python worker pid " + w.pid(), r.vmHwm());
      return r.block();
    } catch (PythonWorker.PythonTaskException | IllegalArgumentException e) {
      healthy = w.isAlive(); // the function failed; the worker is fine
      throw e;
    } finally {
      PythonWorkers.release(w, healthy);
    }
  }
}
