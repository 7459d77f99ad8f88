"""One live notice per game and kind (older duplicates go: the newest of each stays), and
Web Push subscriptions."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def keep_the_newest_notice_per_game_and_kind(apps, schema_editor):
    Notification = apps.get_model("notifications", "Notification")
    seen = set()
    stale = []
    rows = (Notification.objects.filter(game__isnull=False)
            .order_by("user_id", "game_id", "kind", "-created", "-pk")
            .values_list("pk", "user_id", "game_id", "kind"))
    for pk, *live in rows.iterator():
        if tuple(live) in seen:
            stale.append(pk)
        else:
            seen.add(tuple(live))
    for start in range(0, len(stale), 1000):
        Notification.objects.filter(pk__in=stale[start:start + 1000]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PushSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('endpoint', models.CharField(max_length=1000, unique=True)),
                ('p256dh', models.CharField(max_length=100)),
                ('auth', models.CharField(max_length=50)),
                ('created', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['pk'],
            },
        ),
        migrations.AddField(
            model_name='notification',
            name='pushed',
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(keep_the_newest_notice_per_game_and_kind,
                             migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='notification',
            constraint=models.UniqueConstraint(condition=models.Q(('game__isnull', False)), fields=('user', 'game', 'kind'), name='notification_one_per_game_and_kind'),
        ),
        migrations.AddField(
            model_name='pushsubscription',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to=settings.AUTH_USER_MODEL),
        ),
    ]
