from jax.experimental.pallas import tpu as pltpu

tc_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)
acc_space = pltpu.ACC(0) @ tc_mesh  # want: PAL202 "an accumulator space on a TensorCoreMesh.*Memory space ACC\(mxu_id=0\) is not supported by mesh TensorCoreMesh\(axis_name='core', num_cores=2\)"
