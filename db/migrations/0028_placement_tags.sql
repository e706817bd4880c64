-- The tags the ad-post rewrite made become placements (docs/placements.md, "Placements made from tags"):
-- a tag whose links all carry its name as their title (in any case: the rewrite reused a tag whatever
-- its case). The placement takes the tag's id, so its links are bound without a name lookup; the tags
-- themselves stay. The rewrite put the owner's own invite link behind a short link too: that invite
-- is bound to the placement as well (its joins are the placement's), when one placement alone wraps it.
INSERT INTO `placements` (`id`, `user_id`, `name`, `venue_kind`, `venue`, `created_at`)
SELECT t.`id`, t.`user_id`, t.`name`,
  CASE WHEN t.`name` GLOB '@[A-Za-z][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_]*' THEN 'telegram' ELSE 'other' END,
  CASE WHEN t.`name` GLOB '@[A-Za-z][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_]*' THEN substr(t.`name`, 2, instr(t.`name` || ' ', ' ') - 2) ELSE t.`name` END,
  t.`created_at`
FROM `tags` t
WHERE EXISTS (SELECT 1 FROM `link_tags` lt WHERE lt.`tag_id` = t.`id`)
  AND NOT EXISTS (
    SELECT 1 FROM `link_tags` lt JOIN `links` l ON l.`id` = lt.`link_id`
    WHERE lt.`tag_id` = t.`id` AND (l.`title` IS NULL OR lower(l.`title`) <> lower(t.`name`))
  );
--> statement-breakpoint
INSERT INTO `placement_links` (`link_id`, `placement_id`)
SELECT lt.`link_id`, min(lt.`tag_id`) FROM `link_tags` lt
WHERE lt.`tag_id` IN (SELECT `id` FROM `placements`)
GROUP BY lt.`link_id`;
--> statement-breakpoint
INSERT INTO `placement_invites` (`invite_id`, `placement_id`)
SELECT ci.`id`, min(pl.`placement_id`) FROM `channel_invites` ci
JOIN `links` l ON l.`url` = ci.`invite_link` AND l.`user_id` = ci.`user_id`
JOIN `placement_links` pl ON pl.`link_id` = l.`id`
GROUP BY ci.`id`
HAVING count(DISTINCT pl.`placement_id`) = 1;
