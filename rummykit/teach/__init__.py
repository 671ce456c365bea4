"""Course content: exercises and their generators, assignments, the student edition."""
