-- Categories fine enough for the corridors' published prohibitions (CONTRACT 26), and every
-- category's name and description in French (GET /categories answers in the reader's language).
-- Hand-written data migration: INSERT OR IGNORE leaves a category an admin created with the same
-- code untouched, and the renames only touch a default row whose name is still the default.
ALTER TABLE `categories` ADD `name_fr` text;
--> statement-breakpoint
ALTER TABLE `categories` ADD `description_fr` text;
--> statement-breakpoint
INSERT OR IGNORE INTO `categories` (`code`, `name`, `description`, `prohibited`) VALUES
  ('MEAT_DAIRY', 'Meat and dairy products', 'Meat, dried meat, sausages, milk, cheese, butter, yoghurt', 0),
  ('POULTRY', 'Poultry', 'Chicken, turkey, duck and guinea fowl meat, eggs', 0),
  ('FISH', 'Fish and seafood', 'Dried, smoked or canned fish and seafood', 0),
  ('PERFUMES', 'Perfumes and aerosols', 'Alcohol-based perfumes, sprays, aerosol cans', 0),
  ('PLANTS_SEEDS', 'Plants and seeds', 'Prohibited: live plants, cuttings, bulbs, seeds, soil', 1),
  ('BATTERIES', 'Batteries and power banks', 'Prohibited: loose lithium batteries, power banks, spare batteries', 1);
--> statement-breakpoint
UPDATE `categories` SET `name` = 'Live animals', `description` = 'Prohibited: live animals, birds, insects'
  WHERE `code` = 'LIVE_ANIMALS' AND `name` = 'Live animals and plants';
--> statement-breakpoint
UPDATE `categories` SET `name_fr` = CASE `code`
    WHEN 'DOCUMENTS' THEN 'Documents'
    WHEN 'CLOTHING' THEN 'Vêtements et textiles'
    WHEN 'ELECTRONICS' THEN 'Électronique'
    WHEN 'FOOD' THEN 'Aliments non périssables'
    WHEN 'COSMETICS' THEN 'Cosmétiques et hygiène'
    WHEN 'MEDICINES' THEN 'Médicaments'
    WHEN 'BOOKS' THEN 'Livres'
    WHEN 'GIFTS' THEN 'Cadeaux et jouets'
    WHEN 'ACCESSORIES' THEN 'Accessoires'
    WHEN 'OTHER' THEN 'Autre'
    WHEN 'WEAPONS' THEN 'Armes et munitions'
    WHEN 'DRUGS' THEN 'Drogues et stupéfiants'
    WHEN 'HAZARDOUS' THEN 'Matières dangereuses'
    WHEN 'CASH' THEN 'Argent liquide et objets de valeur'
    WHEN 'LIVE_ANIMALS' THEN 'Animaux vivants'
    WHEN 'MEAT_DAIRY' THEN 'Viande et produits laitiers'
    WHEN 'POULTRY' THEN 'Volaille'
    WHEN 'FISH' THEN 'Poisson et fruits de mer'
    WHEN 'PERFUMES' THEN 'Parfums et aérosols'
    WHEN 'PLANTS_SEEDS' THEN 'Plantes et semences'
    WHEN 'BATTERIES' THEN 'Batteries et batteries externes'
  END,
  `description_fr` = CASE `code`
    WHEN 'DOCUMENTS' THEN 'Lettres, papiers, imprimés'
    WHEN 'CLOTHING' THEN 'Vêtements, chaussures, tissus'
    WHEN 'ELECTRONICS' THEN 'Téléphones, ordinateurs portables, petit électroménager (batterie dans l’appareil)'
    WHEN 'FOOD' THEN 'Aliments scellés et non périssables'
    WHEN 'COSMETICS' THEN 'Cosmétiques et produits de toilette scellés'
    WHEN 'MEDICINES' THEN 'Médicaments personnels avec leur ordonnance'
    WHEN 'BOOKS' THEN 'Livres et magazines'
    WHEN 'GIFTS' THEN 'Cadeaux, jouets, souvenirs'
    WHEN 'ACCESSORIES' THEN 'Sacs, bijoux de faible valeur, montres'
    WHEN 'OTHER' THEN 'Tout autre objet que le transporteur accepte'
    WHEN 'WEAPONS' THEN 'Interdit : armes à feu, munitions, lames'
    WHEN 'DRUGS' THEN 'Interdit : stupéfiants et substances contrôlées'
    WHEN 'HAZARDOUS' THEN 'Interdit : explosifs, inflammables, batteries lithium seules, gaz'
    WHEN 'CASH' THEN 'Interdit : argent liquide, métaux précieux, titres au porteur'
    WHEN 'LIVE_ANIMALS' THEN 'Interdit : animaux vivants, oiseaux, insectes'
    WHEN 'MEAT_DAIRY' THEN 'Viande, viande séchée, charcuterie, lait, fromage, beurre, yaourt'
    WHEN 'POULTRY' THEN 'Viande de poulet, de dinde, de canard et de pintade, œufs'
    WHEN 'FISH' THEN 'Poisson et fruits de mer séchés, fumés ou en conserve'
    WHEN 'PERFUMES' THEN 'Parfums alcoolisés, sprays, bombes aérosols'
    WHEN 'PLANTS_SEEDS' THEN 'Interdit : plantes vivantes, boutures, bulbes, semences, terre'
    WHEN 'BATTERIES' THEN 'Interdit : batteries lithium seules, batteries externes, batteries de rechange'
  END
  WHERE `name_fr` IS NULL AND `code` IN ('DOCUMENTS', 'CLOTHING', 'ELECTRONICS', 'FOOD', 'COSMETICS', 'MEDICINES', 'BOOKS', 'GIFTS', 'ACCESSORIES', 'OTHER', 'WEAPONS', 'DRUGS', 'HAZARDOUS', 'CASH', 'LIVE_ANIMALS', 'MEAT_DAIRY', 'POULTRY', 'FISH', 'PERFUMES', 'PLANTS_SEEDS', 'BATTERIES');
