"""Work on many rows a bounded batch at a time (periodic clean-ups)."""

from django.db import transaction


def rows_delete_in_batches(queryset, *, order_by: str, batch: int, max_batches: int) -> int:
    """Delete the rows of `queryset` oldest first (`order_by`, an indexed column), `batch`
    rows a statement and a transaction, at most `max_batches` statements: a large backlog
    goes over several runs, no lock is held long, and a run that finds little to do makes
    one query whatever the table's size. Returns the rows deleted.

    The queryset's model must have no dependent rows and no delete signals (each batch is
    one plain DELETE)."""
    deleted = 0
    for _ in range(max_batches):
        ids = queryset.order_by(order_by).values("pk")[:batch]
        with transaction.atomic():
            count, _ = queryset.model._base_manager.filter(pk__in=ids).delete()
        deleted += count
        if count < batch:
            break
    return deleted
