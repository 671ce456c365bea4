"""Course content built on rummykit: the class activities, slides, exercises, assignments
and the student edition of the book's unit guide (``book/teachers.md``)."""
