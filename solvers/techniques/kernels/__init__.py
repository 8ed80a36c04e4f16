"""Each type's technique engine compiled with numba: the same steps as the Python techniques beside
them, without their sentences, for grading and generation; the Python techniques write the hints."""
