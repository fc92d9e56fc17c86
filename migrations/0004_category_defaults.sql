-- Default parcel categories, present in every environment (production included). Hand-written
-- data migration (drizzle cannot express seed rows); INSERT OR IGNORE keeps it safe to re-apply
-- and leaves categories an admin already created with the same code untouched.
INSERT OR IGNORE INTO `categories` (`code`, `name`, `description`, `prohibited`) VALUES
  ('DOCUMENTS', 'Documents', 'Letters, paperwork, printed matter', 0),
  ('CLOTHING', 'Clothing and textiles', 'Clothes, shoes, fabrics', 0),
  ('ELECTRONICS', 'Electronics', 'Phones, laptops, small appliances (batteries installed in the device)', 0),
  ('FOOD', 'Non-perishable food', 'Sealed, non-perishable food products', 0),
  ('COSMETICS', 'Cosmetics and hygiene', 'Sealed cosmetics and toiletries', 0),
  ('MEDICINES', 'Medicines', 'Personal medicines with their prescription', 0),
  ('BOOKS', 'Books', 'Books and magazines', 0),
  ('GIFTS', 'Gifts and toys', 'Gifts, toys, souvenirs', 0),
  ('ACCESSORIES', 'Accessories', 'Bags, jewellery of low value, watches', 0),
  ('OTHER', 'Other', 'Anything else allowed by the carrier', 0),
  ('WEAPONS', 'Weapons and ammunition', 'Prohibited: firearms, ammunition, blades', 1),
  ('DRUGS', 'Drugs and narcotics', 'Prohibited: narcotics and controlled substances', 1),
  ('HAZARDOUS', 'Hazardous materials', 'Prohibited: explosives, flammables, loose lithium batteries, gases', 1),
  ('CASH', 'Cash and valuables', 'Prohibited: cash, precious metals, bearer instruments', 1),
  ('LIVE_ANIMALS', 'Live animals and plants', 'Prohibited: live animals, plants and seeds', 1);
