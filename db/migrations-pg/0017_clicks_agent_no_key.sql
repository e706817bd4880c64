ALTER TABLE "clicks" DROP CONSTRAINT "clicks_ua_id_user_agents_id_fk";
