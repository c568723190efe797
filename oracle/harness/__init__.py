"""The pallas-ls oracle: runs cases under real JAX versions (see ../README.md)."""
