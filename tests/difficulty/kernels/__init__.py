"""The compiled technique engines held to the Python techniques they speed up, step for step."""
