"""Teaching materials built on rummykit: the class activities and assignments of the
book's unit guide (``book/teachers.md``)."""
