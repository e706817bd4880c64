-- Domains registered before verification existed get their own random challenge value; they serve
-- links again once their owner publishes the TXT record and verifies.
UPDATE `domains` SET `verification_token` = lower(hex(randomblob(16))) WHERE `verification_token` = '';
