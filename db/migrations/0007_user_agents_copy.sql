-- Moves every stored User-Agent into user_agents (once per distinct text) and points each click at it,
-- before the next migration drops clicks.user_agent.
INSERT OR IGNORE INTO `user_agents` (`ua`) SELECT DISTINCT `user_agent` FROM `clicks` WHERE `user_agent` IS NOT NULL;
--> statement-breakpoint
UPDATE `clicks` SET `ua_id` = (SELECT `id` FROM `user_agents` WHERE `ua` = `clicks`.`user_agent`) WHERE `user_agent` IS NOT NULL;
