import { Migration } from '@mikro-orm/migrations';

/**
 * Order Chat (docs/opt-in-families.md, "Order Chat"). The order learns who besides the business's staff may see it:
 * its driver (the account carrying it) and its customer account, both of the order's business and null until set.
 * A conversation per order, created with its first message (unique order_id, so two first messages race into one);
 * its messages, with the author's name and role as they were when written; and a read receipt per message and
 * reader, written when a participant marks the conversation read up to a message (never for the author's own).
 */
export class Migration20261130040000OrderChat extends Migration {
  override up(): void {
    this.addSql(`
      alter table delivery_order
        add column driver_id integer references app_user(id),
        add column customer_id integer references app_user(id);
      create index delivery_order_driver_idx on delivery_order (driver_id) where driver_id is not null;
      create index delivery_order_customer_idx on delivery_order (customer_id) where customer_id is not null;

      create table order_chat_conversation (
        id serial primary key,
        business_id integer not null references business(id),
        order_id integer not null unique references delivery_order(id) on delete cascade,
        message_count integer not null default 0,
        last_message_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create index order_chat_conversation_list_idx on order_chat_conversation (business_id, last_message_at desc, id desc);

      create table order_chat_message (
        id serial primary key,
        conversation_id integer not null references order_chat_conversation(id) on delete cascade,
        business_id integer not null references business(id),
        author_id integer not null references app_user(id),
        author_name varchar(255) not null,
        author_role varchar(32) not null,
        body text not null check (char_length(body) between 1 and 2000),
        created_at timestamptz not null default now()
      );
      create index order_chat_message_conversation_idx on order_chat_message (conversation_id, id desc);

      create table order_chat_receipt (
        message_id integer not null references order_chat_message(id) on delete cascade,
        user_id integer not null references app_user(id),
        business_id integer not null references business(id),
        role varchar(32) not null,
        read_at timestamptz not null default now(),
        primary key (message_id, user_id)
      );
      create index order_chat_receipt_user_idx on order_chat_receipt (user_id, message_id);
    `);
  }
}
