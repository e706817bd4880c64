/** Secure sharing: folders list, one folder with its files, text notes and uploads. */
import { useRef, useState } from "preact/hooks";
import { call, client, upload } from "../api";
import { linkTo, navigate } from "../router";
import { useMainButton } from "../telegram";
import {
  Async,
  Empty,
  ErrorBox,
  confirmed,
  errorText,
  fmtBytes,
  fmtDate,
  html,
  toast,
  useAction,
  useAsync,
  inputValue,
  inputFile,
  type Loaded,
} from "../ui";
import type { SecureFolder } from "../../../api/secure/model";
import { fmtNumber, t } from "../i18n";

export type Folder = SecureFolder;

export function FoldersPage() {
  const folders = useAsync(() => call(client.api.secure.folders.get()), []);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const { busy, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const f = await call(client.api.secure.folders.post({ name: name.trim(), description: description.trim() }));
      setName("");
      setDescription("");
      navigate(`/secure/folders/${f.id}`);
    }, t("app-folder-created"));
  };
  return html`<section>
    <header class="page-head"><h1>${t("app-secure-title")}</h1>
      <a class="btn small" href="/app/secure/requests" onClick=${linkTo("/secure/requests")}>${t("app-requests")}</a></header>
    <${Async} state=${folders}>${(list: Folder[]) =>
      list.length === 0
        ? html`<${Empty}>${t("app-folders-none")}<//>`
        : html`<ul class="list">${list.map(
            (f) => html`<li key=${f.id}><a class="row" href=${`/app/secure/folders/${f.id}`} onClick=${linkTo(`/secure/folders/${f.id}`)}>
          <div class="row-main"><div class="row-title">${f.name} ${f.isPaused && html`<span class="badge warn">${t("app-link-paused")}</span>`}</div>
            ${f.description && html`<div class="row-sub">${f.description}</div>`}</div>
          <div class="row-stats"><strong>${fmtNumber(f.fileCount)}</strong><span>${t("app-files-count", { count: f.fileCount })}</span></div></a></li>`,
          )}</ul>`}<//>
    <form class="card form" onSubmit=${create}>
      <h2>${t("app-folder-new")}</h2>
      <label class="field"><span class="label">${t("app-name")}</span><input name="folderName" required maxlength="100" value=${name} onInput=${(e: Event) => setName(inputValue(e))} /></label>
      <label class="field"><span class="label">${t("app-description")}</span><input name="folderDescription" value=${description} onInput=${(e: Event) => setDescription(inputValue(e))} /></label>
      <button class="btn primary" disabled=${busy}>${t("app-folder-create")}</button>
    </form>
  </section>`;
}

const kindOf = (mime: string): "image" | "video" | "audio" | "file" => {
  const kind = mime.split("/")[0];
  return kind === "image" || kind === "video" || kind === "audio" ? kind : "file";
};

export function FolderPage({ id }: { id: string }) {
  const folder = useAsync(() => call(client.api.secure.folders({ id }).get()), [id]);
  const files = useAsync(() => call(client.api.secure.files.get({ query: { folderId: Number(id) } })), [id]);
  const { busy, run } = useAction();
  const pause = () =>
    run(async () =>
      folder.setData(
        await call(client.api.secure.folders({ id }).pause.patch()).then((r) => ({
          ...folder.data!,
          ...r,
          isPaused: r?.isPaused ?? !folder.data!.isPaused,
        })),
      ),
    );
  const remove = () =>
    confirmed(t("app-folder-delete-confirm")) &&
    run(async () => {
      await call(client.api.secure.folders({ id }).delete());
      navigate("/secure", true);
    }, t("app-folder-deleted"));
  const rename = () => {
    const name = prompt(t("app-folder-name"), folder.data?.name);
    if (name?.trim())
      void run(async () =>
        folder.setData({
          ...folder.data!,
          ...(await call(client.api.secure.folders({ id }).patch({ name: name.trim() }))),
          name: name.trim(),
        }),
      );
  };

  return html`<section><${Async} state=${folder}>${(f: Folder) => html`
    <header class="page-head"><h1 class="ellipsis">${f.name}</h1></header>
    ${f.description && html`<p class="hint">${f.description}</p>`}
    ${f.isPaused && html`<p class="badge warn" role="status">${t("app-folder-paused")}</p>`}
    <div class="button-row">
      <button class="btn small" disabled=${busy} onClick=${pause}>${f.isPaused ? t("app-folder-resume") : t("app-folder-pause")}</button>
      <button class="btn small" disabled=${busy} onClick=${rename}>${t("app-rename")}</button>
      <button class="btn small danger" disabled=${busy} onClick=${remove}>${t("app-folder-delete")}</button>
    </div>`}<//>
    <h2>${t("app-files")}</h2>
    <${Async} state=${files}>${(list: Loaded<typeof files>) =>
      list.length === 0
        ? html`<${Empty}>${t("app-files-none")}<//>`
        : html`<ul class="list">${list.map(
            (x) => html`<li key=${x.id}><a class="row" href=${`/app/secure/files/${x.id}`} onClick=${linkTo(`/secure/files/${x.id}`)}>
          <div class="row-main"><div class="row-title">${x.name} <span class="badge">${x.contentType}</span></div>
            <div class="row-sub">${x.fileSize != null ? `${fmtBytes(x.fileSize)} · ` : ""}${fmtDate(x.createdAt)}</div></div></a></li>`,
          )}</ul>`}<//>
    <${NewFile} folderId=${Number(id)} onDone=${(file: { id: number }) => navigate(`/secure/files/${file.id}`)} />
  </section>`;
}

function NewFile({ folderId, onDone }: { folderId: number; onDone: (f: { id: number }) => void }) {
  const [mode, setMode] = useState<"text" | "upload">("upload");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const uploading = progress !== null && progress < 1;
  // the MainButton appears once there is something to save: a note being written or a chosen file
  const native = useMainButton(mode === "text" ? t("app-note-save") : t("app-upload"), form, {
    busy: uploading,
    visible: mode === "text" || file !== null,
  });

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      if (mode === "text") {
        // no name: the server names the note neutrally ("Note 3, 25 Nov"), never after its text
        const f = await call(
          client.api.secure.files.post({
            folderId,
            ...(name.trim() ? { name: name.trim() } : {}),
            description: description.trim(),
            contentType: "text",
            textContent: text,
          }),
        );
        toast(t("app-note-saved"));
        return onDone(f);
      }
      if (!file) throw new Error(t("app-file-choose"));
      if (file.size > 10 * 1024 * 1024) throw new Error(t("app-file-too-big", { size: fmtBytes(file.size) }));
      setProgress(0);
      const f = await call(
        client.api.secure.files.post({
          folderId,
          name: name.trim() || file.name,
          description: description.trim(),
          contentType: kindOf(file.type),
        }),
      );
      const form = new FormData();
      form.append("file", file);
      try {
        await upload(`/api/secure/files/${f.id}/upload`, form, setProgress);
      } catch (err) {
        await call(client.api.secure.files({ id: f.id }).delete()).catch(() => {}); // no empty record left behind
        throw err;
      }
      setProgress(1);
      toast(t("app-file-uploaded"));
      onDone(f);
    } catch (err) {
      setError(errorText(err));
      setProgress(null);
    }
  };
  return html`<form class="card form" ref=${form} onSubmit=${submit}>
    <h2>${t("app-file-add")}</h2>
    <div class="seg" role="tablist">
      <button type="button" role="tab" aria-selected=${mode === "upload"} class=${mode === "upload" ? "on" : ""} onClick=${() => setMode("upload")}>${t("app-file-upload-tab")}</button>
      <button type="button" role="tab" aria-selected=${mode === "text"} class=${mode === "text" ? "on" : ""} onClick=${() => setMode("text")}>${t("app-note-tab")}</button>
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    <label class="field"><span class="label">${t("app-name")}</span><input name="fileName" value=${name} onInput=${(e: Event) => setName(inputValue(e))} placeholder=${mode === "upload" ? t("app-file-name-default") : t("app-note-name-default")} /></label>
    <label class="field"><span class="label">${t("app-description")}</span><input name="fileDescription" value=${description} onInput=${(e: Event) => setDescription(inputValue(e))} /></label>
    ${
      mode === "text"
        ? html`<label class="field"><span class="label">${t("app-note-text")}</span><textarea name="textContent" rows="6" required value=${text} onInput=${(e: Event) => setText(inputValue(e))}></textarea></label>`
        : html`<label class="field"><span class="label">${t("app-file-field")}</span><input type="file" name="file" onChange=${(e: Event) => setFile(inputFile(e))} /></label>`
    }
    ${
      progress !== null &&
      html`<div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow=${Math.round(progress * 100)}>
      <div class="bar" style=${`width:${Math.round(progress * 100)}%`}></div><span>${Math.round(progress * 100)}%</span></div>`
    }
    ${!native && html`<button class="btn primary" disabled=${uploading}>${mode === "text" ? t("app-note-save") : t("app-upload")}</button>`}
  </form>`;
}
